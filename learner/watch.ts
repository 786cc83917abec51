// npm run watch -- 01: Vitest's watch mode on one exercise, so saving a file runs its tests again, with the
// short report of `npm test` (learner/npm-test.js): the first failure in full, and the next exercise
// when it turns green, with a key (n) that moves on to watching it, as rustlings does.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { movingOn } from './loop.ts';
import { chooseExercise, readArgs, runLearnerCommand } from './args.ts';
import { isMain } from '../lib/main-module.ts';

// The arguments for npm-test.js that watch one exercise's folder; `all` keeps Vitest's full report.
export function watchArgs(root: string, word: string | undefined, all = false): string[] {
	const exercise = chooseExercise(word, 'watch', root);
	return ['watch', `exercises/${exercise.folder}/`, ...(all ? ['--all'] : [])];
}

// Watches one exercise; when the learner moves on (the key the green screen offers), the next one, and so on.
async function watchFrom(first: string | undefined, all: boolean): Promise<number> {
	const list = exercises(workbookRoot);
	let word = first;
	for (;;) {
		const args = watchArgs(workbookRoot, word, all);
		const script = join(workbookRoot, 'learner', 'npm-test.js');
		const code = await new Promise<number>((resolve) => {
			const vitest = spawn(process.execPath, [script, ...args], { cwd: workbookRoot, stdio: 'inherit' });
			vitest.on('close', (status) => resolve(status ?? 0));
		});
		const { id } = chooseExercise(word, 'watch', workbookRoot);
		const next = list[list.findIndex((exercise) => exercise.id === id) + 1];
		if (code !== movingOn || !next) return code;
		word = next.id;
	}
}

if (isMain(import.meta.url)) {
	await runLearnerCommand(() => {
		const args = readArgs(['all']);
		return watchFrom(args.words[0], args.flags.has('all'));
	});
}
