// Which exercise a test file belongs to, whether it tests code the exercise gives, and its place in the syllabus.
//
//   const file = exerciseTestFile(root, list, 'exercises/03-the-race/separate.test.ts');
//   // → { exercise: 03, step: 2, givenCode: true }
//
// A test file tests the file of the same name (`atomic.test.ts` tests `atomic.ts`). When that file is one of the
// exercise's learnerFiles, the file is a step, in the manifest's order, which is the order its README teaches
// them. Otherwise it tests code the exercise gives (03's separate.ts, 05's send-inside.ts): those tests pass
// from the start, so progress, the short report and the UI keep them apart from the learner's own.
import { existsSync } from 'node:fs';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';

export type ExerciseTestFile = { exercise: Exercise; step: number; givenCode: boolean };

export function exerciseTestFile(root: string, list: Exercise[], file: string): ExerciseTestFile | undefined {
	const parts = (isAbsolute(file) ? relative(root, file) : file).split(sep);
	const exercise = parts[0] === 'exercises' ? list.find((e) => e.folder === parts[1]) : undefined;
	if (!exercise) return undefined;
	const tested = basename(file).replace(/\.test\.ts$/, '.ts');
	const step = exercise.learnerFiles.indexOf(tested);
	if (step >= 0) return { exercise, step, givenCode: false };
	const givenCode = existsSync(join(root, 'exercises', exercise.folder, tested));
	return { exercise, step: exercise.learnerFiles.length, givenCode };
}
