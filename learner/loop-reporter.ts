// The short report of `npm test exercises/NN` and `npm run watch -- NN` (learner/loop.ts says what it
// prints). Set by learner/npm-test.js; `npm test exercises/NN -- --all` uses Vitest's full report instead.
// It only reads the results Vitest already holds and prints once at the end of a run, so it costs next to nothing.
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { exercises } from '#harness/core/manifest.ts';
import { formatLoop } from './loop.ts';
import { terminalPaint as paint } from './progress.ts';
import { byPath, tally } from './tally.ts';
import { checkTypes, type TypeError } from './types.ts';

type VitestError = { message?: string };

export default class LoopReporter implements Reporter {
	private vitest?: Vitest;
	private root = process.cwd();
	// In watch mode a save reruns only the files it touches: the others keep their last results, so an
	// exercise of two files is not called green when only one of them ran.
	private known = new Map<string, TestModule>();
	// The compiler runs beside the tests, started with each run (learner/types.ts).
	private types?: Promise<TypeError[]>;

	onInit(vitest: Vitest): void {
		this.vitest = vitest;
		this.root = vitest.config.root;
		quietCtrlC(vitest);
		this.types = checkTypes(this.root);
	}

	onWatcherRerun(): void {
		this.types = checkTypes(this.root);
		if (process.stdout.isTTY) this.vitest?.logger.clearFullScreen('');
	}

	onWatcherStart(): void {
		console.log(paint.dim('Watching: save a file to run the tests again · press q to stop, h for more keys'));
	}

	async onTestRunEnd(
		modules: ReadonlyArray<TestModule>,
		errors: ReadonlyArray<unknown>,
		reason: TestRunEndReason
	): Promise<void> {
		const typeErrors = (await this.types) ?? [];
		for (const module of modules) this.known.set(module.moduleId, module);
		const list = exercises(this.root);
		const ran = byPath(this.root, this.known.values());
		// The exercises npm test was asked for (learner/npm-test.js), a test file of theirs deleted too, and any that ran.
		const asked = (process.env.LEARNER_EXERCISES ?? '').split(',');
		const reported = list.filter(
			(e) => asked.includes(e.id) || [...ran.keys()].some((file) => file.startsWith(`exercises/${e.folder}/`))
		);
		const results = tally(this.root, reported, ran, typeErrors);
		// Green tests with type errors, or with test files not as shipped, are not green: the run fails as a red
		// test would fail it.
		if (results.some((r) => r.typeErrors?.length || r.testFiles?.length)) process.exitCode = 1;
		const last = results.at(-1)?.exercise;
		const next = last && list[list.indexOf(last) + 1];
		const filtered = Boolean(this.vitest?.config.testNamePattern) || reason === 'interrupted';
		if (results.length)
			console.log(
				`\n${formatLoop(results, { paint, next, filtered, watching: this.vitest?.config.watch })}\n`
			);
		for (const error of errors) {
			const message = (error as VitestError).message ?? String(error);
			console.log(paint.red(`Vitest hit an error outside the tests: ${message.split('\n')[0]}`));
		}
	}
}

// Ctrl-C in watch mode: Vitest says "Cancelling test run. Press CTRL+c again to exit forcefully." even when
// no run is going, and one Ctrl-C is always enough here (a stuck test thread is ended, lib/watchdog/).
function quietCtrlC(vitest: Vitest): void {
	const log = vitest.logger.log.bind(vitest.logger);
	vitest.logger.log = (...args: unknown[]) => {
		if (args.some((arg) => String(arg).includes('Press CTRL+c again'))) return;
		log(...args);
	};
}
