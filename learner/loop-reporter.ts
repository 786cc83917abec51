// The short report of `npm test exercises/NN` and `npm run watch -- NN` (learner/loop.ts says what it
// prints). Set by learner/npm-test.js; `npm test exercises/NN -- --all` uses Vitest's full report instead.
// It only reads the results Vitest already holds and prints once at the end of a run, so it costs next to nothing.
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { exercises, type Exercise } from '#harness/core/manifest.ts';
import { calledGreen, formatLoop, keepPrinted, movingOn, nextKey, type Printed } from './loop.ts';
import { terminalPaint as paint } from './progress.ts';
import { byPath, tally } from './tally.ts';
import { checkTypes, exercisesNamed, type TypeError } from './types.ts';

type VitestError = { message?: string };

export default class LoopReporter implements Reporter {
	private vitest?: Vitest;
	private root = process.cwd();
	// In watch mode a save reruns only the files it touches: the others keep their last results, so an
	// exercise of two files is not called green when only one of them ran.
	private known = new Map<string, TestModule>();
	// The compiler runs beside the tests, started with each run (learner/types.ts).
	private types?: Promise<TypeError[]>;
	// The exercises this run names (npm-test.js runs Vitest in this process, so its arguments are ours to read):
	// the compiler checks only their files.
	private typesOf?: Exercise[];
	// What each test printed (03's prediction prints the race step by step), by the test's id: the first few
	// KB, and how much more (loop.ts's keepPrinted).
	private printed = new Map<string, Printed>();
	// In watch mode, the next exercise while this one is green: the key moves on to it (learner/watch.ts).
	private moveOnTo?: string;

	onInit(vitest: Vitest): void {
		this.vitest = vitest;
		this.root = vitest.config.root;
		quietCtrlC(vitest);
		this.typesOf = exercisesNamed(exercises(this.root), process.argv.slice(2));
		this.types = checkTypes(this.root, this.typesOf);
		if (vitest.config.watch) this.listenForNext(vitest);
	}

	// Vitest's own keys leave this one alone; a pipe works as a terminal does (a test drives watch so).
	private listenForNext(vitest: Vitest): void {
		process.stdin.on('data', (chunk) => {
			if (!this.moveOnTo || !String(chunk).includes(nextKey)) return;
			this.moveOnTo = undefined;
			void vitest.close().then(() => process.exit(movingOn));
		});
	}

	onWatcherRerun(): void {
		this.moveOnTo = undefined;
		this.types = checkTypes(this.root, this.typesOf);
		if (process.stdout.isTTY) this.vitest?.logger.clearFullScreen('');
	}

	// A file that runs again prints again: what its tests printed last time goes (a test's id starts with its file's).
	onTestModuleQueued(module: TestModule): void {
		for (const id of this.printed.keys()) if (id.startsWith(`${module.id}_`)) this.printed.delete(id);
	}

	onUserConsoleLog(log: UserConsoleLog): void {
		if (log.type !== 'stdout' || !log.taskId) return;
		const kept = keepPrinted(this.printed.get(log.taskId), log.content);
		this.printed.set(log.taskId, kept);
		// Vitest keeps every log on its test too, for reporters that read them: this one reads only what it kept.
		log.content = '';
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
		const results = tally(this.root, reported, ran, typeErrors, this.printed);
		// Green tests with type errors, or with test files not as shipped, are not green: the run fails as a red
		// test would fail it.
		if (results.some((r) => r.typeErrors?.length || r.testFiles?.length || r.borrowed?.length))
			process.exitCode = 1;
		const last = results.at(-1)?.exercise;
		const next = last && list[list.indexOf(last) + 1];
		const filtered = Boolean(this.vitest?.config.testNamePattern) || reason === 'interrupted';
		const options = { paint, next, filtered, watching: this.vitest?.config.watch };
		if (results.length) console.log(`\n${formatLoop(results, options)}\n`);
		if (options.watching && next && calledGreen(results, options)) this.moveOnTo = next.id;
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
