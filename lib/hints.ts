// An exercise's hints.md, read: what `npm run hint` shows one at a time, what the grader quotes a named
// mistake's hint by, and what the hints' test holds to the house's shape.
//
//   readHints(root, exercise)        [{ title: 'Two tenants both send evt-42. …?', body: '…' }, …]
//   parseHints(markdown)             the same from the text
//   hintProblems(hints)              [] when fit to ship; otherwise what is wrong, one line each
//
// Every "## " heading starts a hint, its title the heading's words and its body the text under it; whatever
// comes before the first heading is for maintainers only. A title ending in "?" is a question, and questions
// come before answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';

export type Hint = { title: string; body: string };

export const hintsFile = (exercise: Exercise) => join('exercises', exercise.folder, 'hints.md');

export function parseHints(markdown: string): Hint[] {
	const hints: Hint[] = [];
	for (const line of markdown.split('\n')) {
		const heading = /^## +(.*\S)\s*$/.exec(line);
		if (heading) hints.push({ title: heading[1]!, body: '' });
		else if (hints.length) hints.at(-1)!.body += `${line}\n`;
	}
	return hints.map((hint) => ({ title: hint.title, body: hint.body.trim() }));
}

// The hints of the exercise in the workbook at root; it throws if its hints.md is missing.
export const readHints = (root: string, exercise: Exercise): Hint[] =>
	parseHints(readFileSync(join(root, hintsFile(exercise)), 'utf8'));

export const isQuestion = (hint: Hint) => hint.title.endsWith('?');

// What makes a hints file fit to ship: some hints, each with words, and every question before any answer.
export function hintProblems(hints: Hint[]): string[] {
	const problems: string[] = [];
	if (hints.length < 2) problems.push(`has ${hints.length} hints; give at least a question and an answer`);
	if (hints[0] && !isQuestion(hints[0]))
		problems.push(`the first hint, "${hints[0].title}", is not a question`);
	hints.forEach((hint, i) => {
		if (!hint.body) problems.push(`hint ${i + 1}, "${hint.title}", has no text under its heading`);
		const previous = hints[i - 1];
		if (previous && isQuestion(hint) && !isQuestion(previous))
			problems.push(`hint ${i + 1}, "${hint.title}", is a question after an answer`);
	});
	return problems;
}
