// npm run hint -- 01: one more of the exercise's hints each time it is asked, questions before answers.
// `--all` shows every hint at once; `--again` starts that exercise's hints over from the first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { workbookRoot } from '#harness/core/manifest.ts';
import { chooseExercise, LearnerError, readArgs, runLearnerCommand } from './args.ts';
import { hintsShown, saveHintsShown } from './state.ts';
import { hintsFile, readHints, type Hint } from '../lib/hints.ts';
import { isMain } from '../lib/main-module.ts';

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
	const hints = readHints(root, exercise);
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

if (isMain(import.meta.url)) {
	await runLearnerCommand(() => {
		const args = readArgs(['all', 'again']);
		const options = { all: args.flags.has('all'), again: args.flags.has('again') };
		console.log(hint(workbookRoot, args.words[0], options));
		return 0;
	});
}
