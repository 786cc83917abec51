// Runs Vitest with its JSON reporter and reads back which tests passed and failed, file by file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, run, type RunOptions } from './run.ts';

export type TestResult = {
	file: string;
	name: string;
	status: 'passed' | 'failed' | 'skipped';
	message: string;
	// The schedule the test plays, from its meta (see harness/core/plays.ts).
	plays?: string;
};
// A test file that failed as a whole (it would not import, or the worker died) has a message and no tests.
export type FileResult = { file: string; status: string; message: string };
export type VitestReport = {
	tests: TestResult[];
	files: FileResult[];
	output: string;
	code: number;
	// Whether Vitest wrote its report at all: it does not when it is killed or exits early.
	reported: boolean;
	timedOut: boolean;
};

type Json = {
	testResults: {
		name: string;
		status: string;
		message: string;
		assertionResults: {
			fullName: string;
			status: string;
			failureMessages: string[];
			meta?: { plays?: string };
		}[];
	}[];
};

export async function vitestJson(
	args: string[],
	cwd?: string,
	options: RunOptions = {}
): Promise<VitestReport> {
	const dir = mkdtempSync(join(tmpdir(), 'vitest-json-'));
	const outputFile = join(dir, 'report.json');
	try {
		const ran = await run(bin('vitest'), ['run', ...args, '--reporter=json', `--outputFile=${outputFile}`], {
			...options,
			cwd
		});
		let json: Json = { testResults: [] };
		let reported = false;
		try {
			json = JSON.parse(readFileSync(outputFile, 'utf8'));
			reported = true;
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
		const files = json.testResults.map((file) => ({
			file: file.name,
			status: file.status,
			message: file.message ?? ''
		}));
		return { tests, files, output: ran.output, code: ran.code, reported, timedOut: ran.timedOut };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
