// Runs one exercise's tests (given and held-out) for one tree, in its own process group, with a wall-clock limit.
import { relative } from 'node:path';
import type { Exercise } from '#shared/manifest.ts';
import { vitestJson } from '../scripts/vitest-json.ts';
import { gradeConfig, root } from './paths.ts';

export type RunSettings = {
	seed: number;
	timeoutMs: number;
	heldOutChecks: number;
	heldOutRuns: number;
	// How much of a run's output is kept.
	maxOutput: number;
};

export type Ran = { status: 'passed' | 'failed' | 'skipped'; message: string };
export type ExerciseRun = {
	// Test key ("file › full name") to what happened.
	tests: Map<string, Ran>;
	// Why a test that is not in `tests` never ran, given the file it lives in.
	notExecuted: (file: string) => string;
	seconds: number;
	output: string;
};

export const testKey = (file: string, name: string) => `${file} › ${name}`;
export const maxMessage = 4000;
export const heapMegabytes = 1024;

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g;
// The harness's own stack frames tell a learner nothing; they are left out.
const harnessFrame = /^\s+at (?:.*node_modules.*|new Promise \(<anonymous>\))$/;
export function clip(text: string, limit = maxMessage): string {
	const lines = text.replace(ansi, '').split('\n');
	const plain = lines
		.filter((line) => !harnessFrame.test(line))
		.join('\n')
		.trimEnd();
	return plain.length > limit
		? `${plain.slice(0, limit)}\n[… ${plain.length - limit} more characters cut]`
		: plain;
}

// The learner's code runs with a short environment: no grader secrets, no colours in messages.
function environment(tree: string, exercise: Exercise, settings: RunSettings): NodeJS.ProcessEnv {
	const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT'];
	const env: NodeJS.ProcessEnv = Object.fromEntries(
		keep.filter((k) => process.env[k]).map((k) => [k, process.env[k]])
	);
	return {
		...env,
		NO_COLOR: '1',
		// A learner's code that allocates without end kills its own worker, not the machine.
		NODE_OPTIONS: `--max-old-space-size=${heapMegabytes}`,
		GRADE_TREE: tree,
		GRADE_EXERCISE: exercise.folder,
		GRADE_SEED: String(settings.seed),
		GRADE_HELD_OUT_CHECKS: String(settings.heldOutChecks),
		GRADE_HELD_OUT_RUNS: String(settings.heldOutRuns)
	};
}

const firstLine = (text: string) => clip(text.trim().split('\n')[0] ?? '', 300);

export async function runExercise(
	tree: string,
	exercise: Exercise,
	settings: RunSettings
): Promise<ExerciseRun> {
	const started = Date.now();
	const timeoutMs = settings.timeoutMs * (exercise.timeLimitFactor ?? 1);
	const report = await vitestJson(['--config', gradeConfig], root, {
		env: environment(tree, exercise, settings),
		timeoutMs,
		maxOutput: settings.maxOutput
	});
	const tests = new Map<string, Ran>();
	for (const test of report.tests)
		tests.set(testKey(relative(root, test.file), test.name), {
			status: test.status,
			message: clip(test.message)
		});
	const brokenFiles = new Map(
		report.files.filter((file) => file.message).map((file) => [relative(root, file.file), file.message])
	);
	const limit = `${timeoutMs / 1000} s`;
	const notExecuted = (file: string) => {
		if (report.timedOut)
			return `timed out: the exercise was stopped after ${limit} (an endless loop or a promise that never settles?)`;
		const broken = brokenFiles.get(file);
		if (broken) return `${file} did not load: ${firstLine(broken)}`;
		if (!report.reported)
			return `the test process exited (code ${report.code}) before it reported: ${firstLine(report.output) || 'no output'}`;
		// A worker that died (out of memory, killed) leaves only Vitest's own words in the output.
		const died = /Error: (.*(?:exited|terminated|heap|memory).*)$/im.exec(report.output.replace(ansi, ''));
		return died ? `the test worker died: ${firstLine(died[1]!)}` : 'it did not run';
	};
	return { tests, notExecuted, seconds: (Date.now() - started) / 1000, output: report.output };
}
