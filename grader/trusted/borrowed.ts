// An exercise's answer handed on, imported where it is the exercise (harness/core/given.ts has the rule): found
// in the run's view, before the run, by following the compiled learner files' imports through the view and the
// compiled harness. Such a run never starts: every check gets 0, with the one line that says why.
//
//   const line = borrowedInView(harness.dir, view.dir, exercise);
//   // "exercises/02-same-event/handler.ts imports exercise 02's answer, handed on from 03: write your own (…)"
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { borrowedAnswers } from '#harness/core/given.ts';
import type { Exercise } from '#harness/core/manifest.ts';

// Only the workbook's own code is followed: the view's exercises/ and the harness. The grader's inside/ and
// channel/ are no way a learner's workbook hands answers on (a file that imports them is judged by the run).
const inWorkbook = /^(exercises|harness)\//;

export function borrowedInView(harnessDir: string, viewDir: string, exercise: Exercise): string | null {
	const read = (path: string): string | null => {
		if (!inWorkbook.test(path) || path.split('/').includes('..')) return null;
		// Its own folder only: a batch's view holds the other exercises' files too, which a run alone has not.
		if (path.startsWith('exercises/') && !path.startsWith(`exercises/${exercise.folder}/`)) return null;
		const base = path.startsWith('exercises/') ? viewDir : harnessDir;
		for (const file of [path.replace(/\.ts$/, '.js'), path]) {
			try {
				if (statSync(join(base, file)).isFile()) return readFileSync(join(base, file), 'utf8');
			} catch {
				// Not there: the next name, or nothing to follow.
			}
		}
		return null;
	};
	// esbuild printed these files: a comment left in one is a learner's own, and counts against them only.
	return borrowedAnswers(exercise, read, { keepComments: true })[0]?.said ?? null;
}
