// npm run watch -- 01: Vitest's watch mode on one exercise, so saving a file runs its tests again.
import { spawn } from 'node:child_process';
import { workbookRoot } from '#shared/manifest.ts';
import { bin } from '../run.ts';
import { chooseExercise, readArgs, runLearnerCommand } from './args.ts';

// The Vitest command line that watches one exercise's folder.
export function watchArgs(root: string, word: string | undefined): string[] {
	const exercise = chooseExercise(word, 'watch', root);
	return ['watch', '--project', 'exercises', `exercises/${exercise.folder}/`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await runLearnerCommand(
		() =>
			new Promise<number>((resolve) => {
				const args = watchArgs(workbookRoot, readArgs([]).words[0]);
				const vitest = spawn(bin('vitest'), args, { cwd: workbookRoot, stdio: 'inherit' });
				vitest.on('close', (code) => resolve(code ?? 0));
			})
	);
}
