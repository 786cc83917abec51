// npm run ui: the Vitest UI on the learner's exercises, its tree in the syllabus's order (ui-steps.ts).
// It stays up whether or not it has a terminal: Vitest's watch mode is asked for, not guessed from stdin.
// Options after `--` go to Vitest (`npm run ui -- --open=false --api.port=51300`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { workbookRoot } from '#harness/core/manifest.ts';
import { runLearnerCommand } from './args.ts';
import { writeSteps } from './ui-steps.ts';

// Signals that mean "stop": Ctrl-C, an IDE's stop or a timeout, a closed terminal.
const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

await runLearnerCommand(
	() =>
		new Promise<number>((resolve) => {
			writeSteps(workbookRoot);
			const vitest = join(workbookRoot, 'node_modules', 'vitest', 'vitest.mjs');
			const config = join(workbookRoot, 'learner', 'vitest.ui.config.ts');
			const args = [vitest, 'watch', '--ui', '--config', config, ...process.argv.slice(2)];
			const child = spawn(process.execPath, args, { cwd: workbookRoot, stdio: 'inherit' });
			const stop = (signal: NodeJS.Signals) => child.exitCode === null && child.kill(signal);
			// Stopping npm run ui stops Vitest with it.
			for (const signal of stopSignals) process.on(signal, () => stop(signal));
			// A SIGTERM to npm alone ends npm and the shell it ran this in, and the shell passes it on to no one:
			// this process is left, its parent gone. Then it stops Vitest, which would hold the port for ever.
			const parent = process.ppid;
			const orphaned = setInterval(() => process.ppid !== parent && stop('SIGTERM'), 500);
			orphaned.unref();
			child.on('close', (code) => {
				clearInterval(orphaned);
				resolve(code ?? 0);
			});
		})
);
