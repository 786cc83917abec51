// An exercise's hints, read: hints.md for TypeScript, hints.go.md beside it for Go. What `npm run hint` and
// `go run ./cmd/workbook hint` show one at a time, what the grader quotes a named mistake's hint by, and what
// the hints' test holds to the house's shape.
//
//   readHints(root, exercise)        [{ title: 'Two tenants both send evt-42. …?', body: '…' }, …]
//   readHints(root, exercise, 'go')  the same from hints.go.md
//   parseHints(markdown)             the same from the text
//   hintProblems(hints)              [] when fit to ship; otherwise what is wrong, one line each
//   unlikeProblems(ts, go)           [] when hint N is a question in both files or an answer in both
//
// Every "## " heading starts a hint, its title the heading's words and its body the text under it; whatever
// comes before the first heading is for maintainers only. A title ending in "?" is a question, and questions
// come before answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';

export type Hint = { title: string; body: string };
export type HintLanguage = 'typescript' | 'go';

// Go's hints sit beside TypeScript's, so a learner finds both in the exercise's folder.
export const hintsFile = (exercise: Exercise, language: HintLanguage = 'typescript') =>
	join('exercises', exercise.folder, language === 'go' ? 'hints.go.md' : 'hints.md');

export function parseHints(markdown: string): Hint[] {
	const hints: Hint[] = [];
	for (const line of markdown.split('\n')) {
		const heading = /^## +(.*\S)\s*$/.exec(line);
		if (heading) hints.push({ title: heading[1]!, body: '' });
		else if (hints.length) hints.at(-1)!.body += `${line}\n`;
	}
	return hints.map((hint) => ({ title: hint.title, body: hint.body.trim() }));
}

// The hints of the exercise in the workbook at root; it throws if the file is missing.
export const readHints = (root: string, exercise: Exercise, language: HintLanguage = 'typescript'): Hint[] =>
	parseHints(readFileSync(join(root, hintsFile(exercise, language)), 'utf8'));

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

// A wrong solution's "hint: N" names one hint for both languages, so Go's file has TypeScript's hints in
// TypeScript's order: as many, and the N-th a question in both or an answer in both.
export function unlikeProblems(typescript: Hint[], go: Hint[]): string[] {
	if (typescript.length !== go.length)
		return [
			`has ${go.length} hints where hints.md has ${typescript.length}; hint N must be the same hint in both`
		];
	return go.flatMap((hint, i) =>
		isQuestion(hint) === isQuestion(typescript[i]!)
			? []
			: [
					`hint ${i + 1}, "${hint.title}", is ${isQuestion(hint) ? 'a question' : 'an answer'} where hints.md's is not`
				]
	);
}
