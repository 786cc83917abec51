// The Vitest UI's test tree, as the syllabus: one small file per step, named so that they sort in order.
//
//   writeSteps(root) // → .learner/ui/01-first-handler/1-handler.test.ts, …, 03-the-race/1-prediction.test.ts, …
//
// The Vitest UI lists test files sorted by their path, which would put 03's atomic.test.ts before its first step,
// prediction.test.ts. So `npm run ui` runs these instead: each imports one exercise test file, whose tests then
// show under it, named as that file (shownNames, ui-names.ts), and a save to the learner's file reruns it as
// usual. Steps follow each exercise's learnerFiles, the order its README teaches them. Tests of given code
// (03's separate.ts, 05's send-inside.ts) get no step: they are not the learner's, so the UI's count agrees with
// `npm run progress`; `npm test` runs them.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { exercises, type Exercise } from '#harness/core/manifest.ts';
import { stateFolder } from './state.ts';

export const stepsFolder = (root: string) => join(stateFolder(root), 'ui');

// The step files, as paths under the steps folder: "03-the-race/1-prediction.test.ts", in the syllabus's order.
export function stepFiles(
	root: string
): { step: string; test: string; exercise: Exercise; number: number }[] {
	return exercises(root).flatMap((exercise) =>
		exercise.learnerFiles.flatMap((file, i) => {
			const test = file.replace(/\.ts$/, '.test.ts');
			if (!existsSync(join(root, 'exercises', exercise.folder, test))) return [];
			return [{ step: join(exercise.folder, `${i + 1}-${test}`), test, exercise, number: i + 1 }];
		})
	);
}

// What the UI calls each step file: the exercise test file it runs, by its path in the workbook
// ("exercises/03-the-race/prediction.test.ts"), keyed by the step file's absolute path.
export function shownNames(root: string): Map<string, string> {
	return new Map(
		stepFiles(root).map(({ step, test, exercise }) => [
			join(stepsFolder(root), step),
			`exercises/${exercise.folder}/${test}`
		])
	);
}

// Writes the step files afresh (a step of an exercise since removed must not linger) and lists them.
export function writeSteps(root: string): string[] {
	const folder = stepsFolder(root);
	rmSync(folder, { recursive: true, force: true });
	return stepFiles(root).map(({ step, test, exercise, number }) => {
		mkdirSync(join(folder, exercise.folder), { recursive: true });
		const imported = relative(join(folder, exercise.folder), join(root, 'exercises', exercise.folder, test));
		writeFileSync(
			join(folder, step),
			[
				`// Step ${number} of ${exercise.id}: its tests are exercises/${exercise.folder}/${test}, which this runs.`,
				'// (Written by npm run ui, learner/ui-steps.ts, so that the UI lists the steps in the order they are taught.)',
				`import '${imported.split(sep).join('/')}';`,
				''
			].join('\n')
		);
		return step;
	});
}
