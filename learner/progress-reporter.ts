// npm run progress: a Vitest reporter that prints where the learner is instead of every failure.
// Running as a reporter keeps it to one quick `vitest run`: no second process, no report file to read back.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { exercises } from '#harness/core/manifest.ts';
import { counts, saysFiltered, type LoopExercise } from './loop.ts';
import { formatProgress, terminalPaint as paint, type ExerciseResult } from './progress.ts';
import { saidTestFile, testFileRule } from './shipped.ts';
import { byPath, tally } from './tally.ts';
import { checkTypes, saidTypeError, typeRule, type TypeError } from './types.ts';
import { hangsIn } from '../lib/watchdog/hangs.ts';

export default class ProgressReporter implements Reporter {
	private root = process.cwd();
	// The compiler runs beside the tests (learner/types.ts).
	private types?: Promise<TypeError[]>;

	onInit(vitest: Vitest): void {
		this.root = vitest.config.root;
		this.types = checkTypes(this.root);
	}

	async onTestRunEnd(
		modules: ReadonlyArray<TestModule>,
		errors: ReadonlyArray<unknown>,
		reason: TestRunEndReason
	): Promise<void> {
		const typeErrors = (await this.types) ?? [];
		const list = exercises(this.root);
		// Counted from the shipped test files (learner/tally.ts), whatever loaded.
		const results = tally(this.root, list, byPath(this.root, modules), typeErrors).map(progressOf);
		console.log(`\n${formatProgress(results, { goFolder: existsSync(join(this.root, 'go')), paint })}\n`);
		// Red tests are where a learner normally is, not a failure of this command: only a broken run, or code
		// that did not return (lib/watchdog/), exits non-zero.
		process.exitCode = errors.length || reason === 'interrupted' || hangsIn().length ? 1 : 0;
	}
}

// One exercise's row: its counts, and its first red thing: a test file not as shipped, a type error, a test file
// that did not load, then the first test that did not pass, in the order its README teaches the steps.
function progressOf(result: LoopExercise): ExerciseResult {
	const { passed, total, given, ran } = counts(result);
	const { exercise, typeErrors = [], testFiles = [] } = result;
	const row: ExerciseResult = { exercise, passed, total };
	if (given) row.given = given;
	if (typeErrors.length) row.typeErrors = typeErrors.length;
	if (testFiles.length) row.testFiles = testFiles.map((file) => `${file.name} (${file.state})`);
	if (saysFiltered(result)) row.ran = ran;
	// A failure before a test it kept from running (a hang stops the tests after it).
	const firstTest =
		result.tests.find((test) => test.state === 'failed') ??
		result.tests.find((test) => test.state !== 'passed' && !test.givenCode);
	const [broken] = result.broken;
	if (testFiles.length)
		row.firstRed = {
			test: `the tests are not the ones ${exercise.id} ships`,
			message: [saidTestFile(testFiles[0]!), testFileRule(exercise.id)].join('\n')
		};
	else if (typeErrors.length)
		row.firstRed = {
			test: 'the compiler finds type errors',
			message: [saidTypeError(typeErrors[0]!), typeRule(exercise.id)].join('\n')
		};
	else if (broken) row.firstRed = { test: `${broken.file} did not load`, message: broken.message };
	else if (firstTest) row.firstRed = { test: firstTest.name, message: firstTest.message ?? firstTest.state };
	return row;
}
