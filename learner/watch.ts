// npm run watch -- 01: Vitest's watch mode on one exercise, so saving a file runs its tests again, with the
// short report of `npm test` (learner/npm-test.js): the first failure in full, and the next exercise
// when it turns green.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { workbookRoot } from '#harness/core/manifest.ts';
import { chooseExercise, readArgs, runLearnerCommand } from './args.ts';

// The arguments for npm-test.js that watch one exercise's folder; `all` keeps Vitest's full report.
export function watchArgs(root: string, word: string | undefined, all = false): string[] {
	const exercise = chooseExercise(word, 'watch', root);
	return ['watch', `exercises/${exercise.folder}/`, ...(all ? ['--all'] : [])];
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await runLearnerCommand(
		() =>
			new Promise<number>((resolve) => {
				const args = readArgs(['all']);
				const script = join(workbookRoot, 'learner', 'npm-test.js');
				const vitest = spawn(
					process.execPath,
					[script, ...watchArgs(workbookRoot, args.words[0], args.flags.has('all'))],
					{ cwd: workbookRoot, stdio: 'inherit' }
				);
				vitest.on('close', (code) => resolve(code ?? 0));
			})
	);
}
