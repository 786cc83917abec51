// Runs the Go tests with `go test -json` and reads back each test: passed or failed, what it printed,
// and which schedules it says it plays (the "plays …" lines from schedules.Playing in go/schedules).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goExercises } from '#harness/core/manifest.ts';
import { urlVariable } from '#harness/endpoint/postgres-on-demand.ts';
import { startPostgres } from '#harness/postgres/server.ts';
import { run } from './run.ts';

export const goDir = fileURLToPath(new URL('../go/', import.meta.url));

export type GoTest = {
	name: string; // "exercises/02-same-event: TestReceiptHandler/the_schedules,_as_receipt-in-commit/…"
	status: 'passed' | 'failed' | 'skipped';
	output: string;
	plays: string[];
	leaf: boolean; // no subtests: the ones that count, like Vitest's it()
};
export type GoReport = { tests: GoTest[]; problems: string[]; code: number };

type Event = { Action: string; Package?: string; Test?: string; Output?: string };

// Is `go` on the PATH? Answers with its version line, or null.
export async function goVersion(): Promise<string | null> {
	const ran = await run('go', ['version'], { cwd: goDir });
	return ran.code === 0 ? ran.output.trim() : null;
}

const playsLine = /^\s*\S+\.go:\d+: plays (\S+(?: as \S+)?)\s*$/;

export function readGoTestJson(stdout: string, code: number): GoReport {
	const tests = new Map<string, GoTest>();
	const packageOutput = new Map<string, string>();
	const packageFailed = new Set<string>();
	const loose: string[] = [];
	for (const line of stdout.split('\n')) {
		if (!line.trim()) continue;
		let event: Event;
		try {
			event = JSON.parse(line);
		} catch {
			loose.push(line); // a build error can arrive as plain text
			continue;
		}
		if (event.Action === 'build-output') {
			loose.push((event.Output ?? '').trimEnd());
			continue;
		}
		const pkg = (event.Package ?? '').replace(/^workbook\//, '');
		if (!event.Test) {
			if (event.Action === 'output') packageOutput.set(pkg, (packageOutput.get(pkg) ?? '') + event.Output);
			if (event.Action === 'fail') packageFailed.add(pkg);
			continue;
		}
		const name = `${pkg}: ${event.Test}`;
		const test = tests.get(name) ?? { name, status: 'skipped', output: '', plays: [], leaf: true };
		tests.set(name, test);
		if (event.Action === 'output' && event.Output) {
			const played = playsLine.exec(event.Output);
			if (played) test.plays.push(played[1]!);
			else if (!/^(=== |--- |\s*--- )/.test(event.Output.trimStart())) test.output += event.Output;
		}
		if (event.Action === 'pass') test.status = 'passed';
		if (event.Action === 'fail') test.status = 'failed';
	}
	for (const test of tests.values()) {
		const prefix = `${test.name}/`;
		test.leaf = ![...tests.keys()].some((other) => other.startsWith(prefix));
	}
	const problems: string[] = [];
	for (const pkg of packageFailed) {
		const failedTests = [...tests.values()].some(
			(t) => t.status === 'failed' && t.name.startsWith(`${pkg}: `)
		);
		const said = [...loose, (packageOutput.get(pkg) ?? '').trim()].filter(Boolean).join('\n');
		if (!failedTests) problems.push(`go/${pkg}:\n${said}`);
	}
	if (code !== 0 && packageFailed.size === 0 && ![...tests.values()].some((t) => t.status === 'failed'))
		problems.push(`go test failed:\n${loose.join('\n')}`);
	return { tests: [...tests.values()], problems, code };
}

// go test -json over packages (./... unless told) in go/ (or another module), read into tests. Error text
// from a failed build goes to problems; past timeoutMs the run is stopped and says so. In go/, each Go
// learner file is read from go/solutions/ (solutionsOverlay) unless replace says otherwise: go/exercises/
// holds the stubs, and the solutions pass the very same test files.
// 06 and go/endpoint, and 03 and 05 built with -tags postgres, play schedules on a PostgreSQL named by
// WORKBOOK_POSTGRES_URL: unless postgres is false, the run has that tag and, when the variable is not set,
// one server started for this run and stopped after it (the Go tests would start their own otherwise).
export async function goTest(
	dir = goDir,
	timeoutMs?: number,
	options: {
		replace?: Record<string, string>;
		packages?: string[];
		postgres?: boolean;
		run?: string; // go test -run: only the tests it matches
		env?: Record<string, string>; // more variables for the run (WORKBOOK_POSTGRES_URL among them)
	} = {}
): Promise<GoReport> {
	// go/ however it is spelled (the grader's root joins 'go' without the trailing slash goDir has).
	const replace = options.replace ?? (resolve(dir) === resolve(goDir) ? solutionsOverlay() : {});
	const given = options.env?.[urlVariable] ?? process.env[urlVariable];
	const postgres = given || options.postgres === false ? null : await startPostgres();
	const env = {
		...process.env,
		...options.env,
		...(postgres || given ? { [urlVariable]: given ?? postgres!.url } : {})
	};
	const overlay = writeOverlay(replace);
	const args = [
		'test',
		'-json',
		...(overlay ? [`-overlay=${overlay.file}`] : []),
		...(options.postgres === false ? [] : ['-tags=postgres']),
		...(options.run ? [`-run=${options.run}`] : []),
		...(options.packages ?? ['./...'])
	];
	const ran = await run('go', args, { cwd: dir, timeoutMs, env }).finally(() => {
		postgres?.stop();
		overlay?.remove();
	});
	const report = readGoTestJson(ran.output, ran.code);
	if (ran.timedOut) report.problems.push(`go test stopped after ${(timeoutMs ?? 0) / 1000} s`);
	return report;
}

// Every Go learner file of the manifest, go/exercises/<folder>/<file> read from go/solutions/<folder>/<file>.
export function solutionsOverlay(): Record<string, string> {
	return Object.fromEntries(
		goExercises().flatMap((exercise) =>
			exercise.goLearnerFiles.map((file) => [
				join(goDir, 'exercises', exercise.folder, file),
				join(goDir, 'solutions', exercise.folder, file)
			])
		)
	);
}

// go test -overlay's file: which files the Go tool reads from elsewhere. Written to a folder of its own.
function writeOverlay(replace: Record<string, string>): { file: string; remove: () => void } | null {
	if (Object.keys(replace).length === 0) return null;
	const folder = mkdtempSync(join(tmpdir(), 'workbook-go-overlay-'));
	const file = join(folder, 'overlay.json');
	writeFileSync(file, JSON.stringify({ Replace: replace }));
	return { file, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
