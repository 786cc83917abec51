// npm run ui: the Vitest UI on the learner's exercises, its tree in the syllabus's order (ui-steps.ts).
// It stays up whether or not it has a terminal: Vitest's watch mode is asked for, not guessed from stdin.
// Options after `--` go to Vitest (`npm run ui -- --open=false --api.port=51300`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { workbookRoot } from '#harness/core/manifest.ts';
import { runLearnerCommand } from './args.ts';
import { writeSteps } from './ui-steps.ts';

await runLearnerCommand(
	() =>
		new Promise<number>((resolve) => {
			writeSteps(workbookRoot);
			const vitest = join(workbookRoot, 'node_modules', 'vitest', 'vitest.mjs');
			const config = join(workbookRoot, 'learner', 'vitest.ui.config.ts');
			const args = [vitest, 'watch', '--ui', '--config', config, ...process.argv.slice(2)];
			const child = spawn(process.execPath, args, { cwd: workbookRoot, stdio: 'inherit' });
			child.on('close', (code) => resolve(code ?? 0));
			// Stopping npm run ui stops Vitest with it.
			for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
		})
);
