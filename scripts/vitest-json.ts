// Runs Vitest with its JSON reporter and reads back which tests passed and failed, file by file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, run } from './run.ts';

export type TestResult = {
	file: string;
	name: string;
	status: 'passed' | 'failed' | 'skipped';
	message: string;
	// The schedule the test plays, from its meta (see exercises/shared/plays.ts).
	plays?: string;
};
export type VitestReport = { tests: TestResult[]; output: string; code: number };

type Json = {
	testResults: {
		name: string;
		assertionResults: {
			fullName: string;
			status: string;
			failureMessages: string[];
			meta?: { plays?: string };
		}[];
	}[];
};

export async function vitestJson(args: string[], cwd?: string): Promise<VitestReport> {
	const dir = mkdtempSync(join(tmpdir(), 'vitest-json-'));
	const outputFile = join(dir, 'report.json');
	try {
		const ran = await run(bin('vitest'), ['run', ...args, '--reporter=json', `--outputFile=${outputFile}`], {
			cwd
		});
		let json: Json = { testResults: [] };
		try {
			json = JSON.parse(readFileSync(outputFile, 'utf8'));
		} catch {
			// No report: Vitest itself failed; the output says why.
		}
		const tests = json.testResults.flatMap((file) =>
			file.assertionResults.map((test) => ({
				file: file.name,
				name: test.fullName,
				status: test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped',
				message: test.failureMessages.join('\n'),
				...(test.meta?.plays ? { plays: test.meta.plays } : {})
			}))
		) as TestResult[];
		return { tests, output: ran.output, code: ran.code };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
