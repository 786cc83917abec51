// npm run hint -- 01: one more of the exercise's hints each time it is asked, questions before answers.
// `--all` shows every hint at once; `--again` starts that exercise's hints over from the first.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbookRoot, type Exercise } from '#harness/core/manifest.ts';
import { chooseExercise, LearnerError, readArgs, runLearnerCommand } from './args.ts';
import { hintsShown, saveHintsShown } from './state.ts';

export type Hint = { title: string; body: string };

export const hintsFile = (exercise: Exercise) => join('exercises', exercise.folder, 'hints.md');

// In hints.md every "## " heading starts a hint; the text before the first one is for maintainers only.
export function parseHints(markdown: string): Hint[] {
	const hints: Hint[] = [];
	for (const line of markdown.split('\n')) {
		const heading = /^## +(.*\S)\s*$/.exec(line);
		if (heading) hints.push({ title: heading[1]!, body: '' });
		else if (hints.length) hints.at(-1)!.body += `${line}\n`;
	}
	return hints.map((hint) => ({ title: hint.title, body: hint.body.trim() }));
}

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

function shownAs(hint: Hint, number: number, total: number): string {
	const body = hint.body.replace(/^(?=.)/gm, '  ');
	return `Hint ${number} of ${total}: ${hint.title}\n\n${body}`;
}

export type HintOptions = { all?: boolean; again?: boolean };

// Shows the next hint and remembers it; once all are shown (or with `all`), shows them all.
export function hint(root: string, word: string | undefined, options: HintOptions = {}): string {
	const exercise = chooseExercise(word, 'hint', root);
	const file = hintsFile(exercise);
	if (!existsSync(join(root, file)))
		throw new LearnerError(
			`Exercise ${exercise.id} has no hints yet (${file} is missing). Its README is exercises/${exercise.folder}/README.md.`
		);
	const hints = parseHints(readFileSync(join(root, file), 'utf8'));
	if (hints.length === 0)
		throw new LearnerError(`${file} has no hints in it (each starts with a "## " heading).`);
	const shown = hintsShown(root);
	if (options.again) delete shown[exercise.id];
	if (options.all) shown[exercise.id] = hints.length;
	// --again saves below, with the first hint shown; --all shows them all now.
	if (options.all) saveHintsShown(root, shown);
	const before = Math.min(Math.max(Number(shown[exercise.id]) || 0, 0), hints.length);
	const solution = exercise.learnerFiles.map((name) => `solutions/${exercise.folder}/${name}`).join(', ');
	const again = `npm run hint -- ${exercise.id}`;
	if (before === hints.length) {
		const all = hints.map((h, i) => shownAs(h, i + 1, hints.length)).join('\n\n');
		const head = options.all
			? `All ${hints.length} hints for ${exercise.id} · ${exercise.title}.`
			: `You have seen all ${hints.length} hints for ${exercise.id} · ${exercise.title}. Here they are again.`;
		return `${head}\n\n${all}\n\nA working version is in ${solution}: look when you are done, or truly stuck.\nTo start these hints over from the first: ${again} --again`;
	}
	saveHintsShown(root, { ...shown, [exercise.id]: before + 1 });
	const next = shownAs(hints[before]!, before + 1, hints.length);
	const left = hints.length - before - 1;
	const then =
		left === 0
			? `That was the last hint. A working version is in ${solution}: look when you are done, or truly stuck.`
			: `${left} more: run \`${again}\` again when you want the next one.`;
	return `${exercise.id} · ${exercise.title}\n\n${next}\n\n${then}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await runLearnerCommand(() => {
		const args = readArgs(['all', 'again']);
		const options = { all: args.flags.has('all'), again: args.flags.has('again') };
		console.log(hint(workbookRoot, args.words[0], options));
		return 0;
	});
}
