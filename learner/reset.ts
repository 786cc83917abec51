// npm run reset -- 01: puts one exercise's learner files back as shipped, from learner/shipped/, and its test
// files too: a test file changed or deleted comes back, one the workbook does not ship is moved aside.
// shipped/ is a committed copy of every learner file and test file as shipped, so reset works the same whether
// the learner commits, branches, rebases, or downloaded the workbook without git at all.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { workbookRoot, type Exercise } from '#harness/core/manifest.ts';
import { chooseExercise, LearnerError, readArgs, runLearnerCommand } from './args.ts';
import { shippedCopy, testFilesOf } from './shipped.ts';
import { stateFolder } from './state.ts';
import { isMain } from '../lib/main-module.ts';

export { shippedCopy };

// extra: a test file the workbook does not ship, which reset moves aside.
export type LearnerFile = {
	file: string;
	pristine: string;
	state: 'as shipped' | 'changed' | 'missing' | 'extra';
};

// Each learner file of an exercise, where its shipped copy is, and whether the learner changed it; then its
// test files that are not as shipped.
export function learnerFiles(root: string, exercise: Exercise): LearnerFile[] {
	const files = exercise.learnerFiles.map((name): LearnerFile => {
		const file = join('exercises', exercise.folder, name);
		const pristine = shippedCopy(exercise.folder, name);
		if (!existsSync(join(root, pristine)))
			throw new LearnerError(
				`The workbook has no shipped copy of ${file} (${pristine} is missing), so it can't be reset.`
			);
		if (!existsSync(join(root, file))) return { file, pristine, state: 'missing' };
		const same = readFileSync(join(root, file)).equals(readFileSync(join(root, pristine)));
		return { file, pristine, state: same ? 'as shipped' : 'changed' };
	});
	const tests = testFilesOf(root, exercise)
		.filter((test) => test.state !== 'as shipped')
		.map(({ file, name, state }) => ({ file, pristine: shippedCopy(exercise.folder, name), state }));
	for (const test of tests)
		if (test.state !== 'extra' && !existsSync(join(root, test.pristine)))
			throw new LearnerError(
				`The workbook has no shipped copy of ${test.file} (${test.pristine} is missing), so it can't be reset.`
			);
	return [...files, ...tests];
}

const said = {
	'as shipped': 'as shipped',
	changed: 'changed by you',
	missing: 'missing',
	extra: 'not shipped: moved aside'
};

export type Reset = { text: string; code: number };

export function reset(root: string, word: string | undefined, yes: boolean, now = new Date()): Reset {
	const exercise = chooseExercise(word, 'reset', root);
	const files = learnerFiles(root, exercise);
	const list = files.map((f) => `  ${f.file}  (${said[f.state]})`).join('\n');
	const title = `${exercise.id} · ${exercise.title}`;
	if (files.every((f) => f.state === 'as shipped'))
		return { text: `${title}: its files are already as shipped; nothing to reset.\n${list}`, code: 0 };
	const changed = files.filter((f) => f.state === 'changed' || f.state === 'extra');
	if (changed.length && !yes) {
		return {
			text: `Reset ${title} would overwrite:\n${list}\n\nYour changes are in ${changed.length === 1 ? 'that file' : 'those files'}, so nothing was touched. To put the files back as shipped, run:\n  npm run reset -- ${exercise.id} --yes\nYour current version will be kept in .learner/before-reset/.`,
			code: 1
		};
	}
	// Keep what the learner wrote before overwriting it: a reset must never lose work for good.
	const keep = join(stateFolder(root), 'before-reset', now.toISOString().replace(/[:.]/g, '-'));
	for (const f of changed) {
		const kept = join(keep, f.file.replace(/^exercises\//, ''));
		mkdirSync(dirname(kept), { recursive: true });
		copyFileSync(join(root, f.file), kept);
	}
	for (const f of files.filter((f) => f.state !== 'as shipped')) {
		if (f.state === 'extra') {
			rmSync(join(root, f.file));
			continue;
		}
		mkdirSync(dirname(join(root, f.file)), { recursive: true });
		copyFileSync(join(root, f.pristine), join(root, f.file));
	}
	const put = files
		.filter((f) => f.state !== 'as shipped')
		.map((f) => `  ${f.file}${f.state === 'extra' ? '  (moved aside: the workbook does not ship it)' : ''}`);
	const kept = changed.length ? `\nYour version is kept in ${relative(root, keep)}/.` : '';
	return {
		text: `Put back as shipped, for ${title}:\n${put.join('\n')}${kept}\nRun \`npm test exercises/${exercise.id}\` to see it red again.`,
		code: 0
	};
}

if (isMain(import.meta.url)) {
	await runLearnerCommand(() => {
		const args = readArgs(['yes', 'y']);
		const yes = args.flags.has('yes') || args.flags.has('y');
		const { text, code } = reset(workbookRoot, args.words[0], yes);
		(code ? console.error : console.log)(text);
		return code;
	});
}
