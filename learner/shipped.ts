// What the workbook ships: every learner file and every test file as shipped, in learner/shipped/, and how many
// tests each test file holds, in learner/shipped/tests.json.
//
//   testFilesOf(root, exercise)
//   // → [{ file: 'exercises/02-same-event/handler.test.ts', name: 'handler.test.ts', state: 'changed', tests: 29 }]
//   shippedTestCount(root, exercise) // → 29: the exercise's own tests, given code's left out
//
// The shipped tests are the tests: `npm test`, `progress` and the UI count an exercise from these, not from
// what happened to load, and call it green only when each of its test files is as shipped. A test file the
// learner changed, deleted or added is said by name, with `npm run reset -- NN`, which puts them back.
// tools/shipped.ts writes tests.json and the copies (`npm run shipped -- --write`); verify holds them fresh.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';

// Where the shipped copy of one of an exercise's files is kept, relative to the workbook's root.
export const shippedCopy = (folder: string, file: string) => join('learner', 'shipped', folder, file);
export const testCountsFile = join('learner', 'shipped', 'tests.json');

// { "01-first-handler": { "handler.test.ts": 16 }, … }: each shipped test file and its number of tests.
export type TestCounts = Record<string, Record<string, number>>;

export function testCounts(root: string): TestCounts {
	const path = join(root, testCountsFile);
	if (!existsSync(path)) return {};
	const { $comment: _, ...counts } = JSON.parse(readFileSync(path, 'utf8')) as TestCounts & {
		$comment?: string;
	};
	return counts;
}

export type TestFileState = 'as shipped' | 'changed' | 'missing' | 'extra';
export type TestFile = {
	// From the root: "exercises/02-same-event/handler.test.ts"; name is from the exercise's folder.
	file: string;
	name: string;
	state: TestFileState;
	// How many tests it ships with (0 for a file the workbook does not ship).
	tests: number;
	// It tests code the exercise gives (03's separate.ts), not one of the learner's files.
	givenCode: boolean;
};

// The test files the exercise's folder holds, below it too, as names from that folder.
function testFilesIn(root: string, folder: string): string[] {
	const dir = join(root, 'exercises', folder);
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.map((name) => name.split('\\').join('/'))
		.filter((name) => name.endsWith('.test.ts'))
		.sort();
}

// Each shipped test file of the exercise, whether it is as shipped, and any test file the workbook did not ship.
export function testFilesOf(root: string, exercise: Exercise, counts = testCounts(root)): TestFile[] {
	const shipped = counts[exercise.folder] ?? {};
	const present = testFilesIn(root, exercise.folder);
	const names = [...Object.keys(shipped), ...present.filter((name) => !(name in shipped))];
	return names.map((name) => {
		const file = `exercises/${exercise.folder}/${name}`;
		const tested = name.replace(/\.test\.ts$/, '.ts');
		const givenCode = !exercise.learnerFiles.includes(tested);
		const tests = shipped[name] ?? 0;
		const state = !(name in shipped)
			? 'extra'
			: !present.includes(name)
				? 'missing'
				: sameBytes(join(root, file), join(root, shippedCopy(exercise.folder, name)))
					? 'as shipped'
					: 'changed';
		return { file, name, state, tests, givenCode };
	});
}

const sameBytes = (a: string, b: string) => existsSync(b) && readFileSync(a).equals(readFileSync(b));

// The exercise's own tests as shipped: those of its learner files' test files, not of given code's.
export const shippedTestCount = (root: string, exercise: Exercise, counts = testCounts(root)): number =>
	Object.entries(counts[exercise.folder] ?? {})
		.filter(([name]) => exercise.learnerFiles.includes(name.replace(/\.test\.ts$/, '.ts')))
		.reduce((sum, [, tests]) => sum + tests, 0);

// "handler.test.ts is changed" … one line for the learner, with the command that puts it back.
export function saidTestFile({ name, state, tests }: TestFile): string {
	if (state === 'changed') return `${name} is not as shipped: it was changed (it ships with ${tests} tests)`;
	if (state === 'missing') return `${name} is missing (it ships with ${tests} tests)`;
	return `${name} is not one the workbook ships`;
}

// "1 test file not as shipped"
export const notAsShipped = (files: unknown[]) =>
	`${files.length} test ${files.length === 1 ? 'file' : 'files'} not as shipped`;

export const testFileRule = (id: string) =>
	`The shipped tests are the tests: \`npm run reset -- ${id}\` puts them back (it keeps your copy aside).`;
