// An answer the harness hands on, imported in the exercise it answers (harness/core/given.ts has the rule),
// found in the learner's own files as they are on disk: `npm test` and `progress` call such an exercise red.
//
//   borrowedInWorkbook(root, exercise)   // ["exercises/02-same-event/handler.ts imports exercise 02's …"]
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { borrowedAnswers, handedOn } from '#harness/core/given.ts';
import type { Exercise } from '#harness/core/manifest.ts';

export function borrowedInWorkbook(root: string, exercise: Exercise): string[] {
	const read = (path: string): string | null => {
		if (path.split('/').includes('..')) return null;
		for (const file of [path, path.replace(/\.ts$/, '.js')]) {
			try {
				if (statSync(join(root, file)).isFile()) return readFileSync(join(root, file), 'utf8');
			} catch {
				// Not there: the next name, or nothing to follow.
			}
		}
		return null;
	};
	const given = handedOn(join(root, 'exercises', 'manifest.json'));
	return borrowedAnswers(exercise, read, { given }).map((borrowed) => borrowed.said);
}
