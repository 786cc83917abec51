// What one run says of each exercise, counted from the shipped test files (learner/shipped.ts), not from what
// happened to load: the short report (loop-reporter.ts) and progress (progress-reporter.ts) both read it.
//
//   tally(root, list, modules, typeErrors) // → one LoopExercise per exercise in list, in the manifest's order
//
// A shipped test file that did not load still counts its tests, as not passing; a file a filter left out
// counts its tests as not run; a test file that is not as shipped (changed, missing, or one the workbook does
// not ship) makes its exercise red, and its tests, whatever they say, pass nothing.
import { relative } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { Exercise } from '#harness/core/manifest.ts';
import { assertionSaid } from './assertion-words.ts';
import type { LoopExercise, LoopTest, Printed } from './loop.ts';
import { testName } from './progress.ts';
import { testCounts, testFilesOf } from './shipped.ts';
import { typeErrorsIn, type TypeError } from './types.ts';
import { borrowedInWorkbook } from './borrowed.ts';

type VitestError = { message?: string; diff?: string; stacks?: { file: string; line: number }[] };

// modules: the test modules that ran, by their path from the root.
export function tally(
	root: string,
	list: Exercise[],
	modules: Map<string, TestModule>,
	typeErrors: TypeError[],
	printed: Map<string, Printed> = new Map()
): LoopExercise[] {
	const counts = testCounts(root);
	return list.map((exercise) => {
		const entry: LoopExercise = {
			exercise,
			tests: [],
			broken: [],
			typeErrors: typeErrorsIn(typeErrors, exercise),
			testFiles: [],
			unplayed: 0,
			filteredOut: [],
			borrowed: borrowedInWorkbook(root, exercise)
		};
		// The learner's steps in the order their README teaches them, then given code's tests.
		const files = testFilesOf(root, exercise, counts).sort(
			(a, b) => Number(a.givenCode) - Number(b.givenCode) || step(exercise, a.name) - step(exercise, b.name)
		);
		for (const file of files) {
			const module = modules.get(file.file);
			if (file.state !== 'as shipped') {
				entry.testFiles!.push(file);
				entry.unplayed! += file.tests;
				continue;
			}
			if (!module) {
				entry.filteredOut!.push(file.file);
				if (!file.givenCode) entry.unplayed! += file.tests;
				continue;
			}
			const loadError = module.errors()[0];
			if (loadError) entry.broken.push({ file: file.file, message: plain(loadError.message) });
			const tests = [...module.children.allTests()].map((test) =>
				said(test, module, file.file, file.givenCode, printed)
			);
			entry.tests.push(...tests);
			entry.unplayed! += Math.max(file.tests - tests.length, 0);
		}
		return entry;
	});
}

const step = (exercise: Exercise, name: string) => {
	const at = exercise.learnerFiles.indexOf(name.replace(/\.test\.ts$/, '.ts'));
	return at < 0 ? exercise.learnerFiles.length : at;
};

function said(
	test: TestCase,
	module: TestModule,
	path: string,
	givenCode: boolean,
	printed: Map<string, Printed>
): LoopTest {
	const result = test.result();
	const error = result.errors?.[0] as VitestError | undefined;
	const at = error?.stacks?.find((s) => s.file === module.moduleId);
	const state = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
	const told: LoopTest = { name: testName(test), file: path, state, givenCode };
	if (error) told.message = assertionSaid(plain(error.message), plain(error.diff));
	if (at) told.at = `${path}:${at.line}`;
	// What the test printed (03's prediction prints the race step by step).
	const kept = printed.get(test.id);
	const output = plain(kept?.text);
	if (output) told.printed = output;
	if (output && kept?.more) told.printedMore = kept.more;
	return told;
}

// The paths of the modules that ran, from the root, as tally() looks them up.
export const byPath = (root: string, modules: Iterable<TestModule>) =>
	new Map([...modules].map((module) => [relative(root, module.moduleId).split('\\').join('/'), module]));

// Vitest's diff and a parser's message, without their colours: the reports paint their own.
export const plain = (text?: string) => text?.replace(/\x1b\[[0-9;]*m/g, '').trim() ?? '';
