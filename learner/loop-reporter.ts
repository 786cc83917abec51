// The short report of `npm test exercises/NN` and `npm run watch -- NN` (learner/loop.ts says what it
// prints). Set by learner/npm-test.js; `npm test exercises/NN -- --all` uses Vitest's full report instead.
// It only reads the results Vitest already holds and prints once at the end of a run, so it costs next to nothing.
import { relative } from 'node:path';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { exercises, type Exercise } from '#harness/core/manifest.ts';
import { calledGreen, formatLoop, movingOn, nextKey, type LoopExercise, type LoopTest } from './loop.ts';
import { terminalPaint as paint, testName } from './progress.ts';
import { exerciseTestFile } from './test-files.ts';
import { assertionSaid } from './assertion-words.ts';
import { checkTypes, exercisesNamed, typeErrorsIn, type TypeError } from './types.ts';

type VitestError = { message?: string; diff?: string; stacks?: { file: string; line: number }[] };

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
	// What each test printed (03's prediction prints the race step by step), by the test's id.
	private printed = new Map<string, string>();

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
		this.printed.set(log.taskId, (this.printed.get(log.taskId) ?? '') + log.content);
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
		const byExercise = new Map<string, LoopExercise>();
		const sorted = [...this.known.values()]
			.map((module) => ({ module, file: exerciseTestFile(this.root, list, module.moduleId) }))
			.filter((m) => m.file)
			.sort((a, b) => a.file!.step - b.file!.step);
		for (const { module, file } of sorted) {
			const { exercise, givenCode } = file!;
			const entry = byExercise.get(exercise.id) ?? {
				exercise,
				tests: [],
				broken: [],
				typeErrors: typeErrorsIn(typeErrors, exercise)
			};
			byExercise.set(exercise.id, entry);
			const path = relative(this.root, module.moduleId);
			const loadError = module.errors()[0];
			if (loadError) entry.broken.push({ file: path, message: plain(loadError.message) });
			for (const test of module.children.allTests()) {
				const result = test.result();
				const error = result.errors?.[0] as VitestError | undefined;
				const at = error?.stacks?.find((s) => s.file === module.moduleId);
				const state = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
				const entryTest: LoopTest = {
					name: testName(test),
					file: path,
					state,
					givenCode
				};
				if (error) entryTest.message = assertionSaid(plain(error.message), plain(error.diff));
				if (at) entryTest.at = `${path}:${at.line}`;
				const printed = plain(this.printed.get(test.id));
				if (printed) entryTest.printed = printed;
				entry.tests.push(entryTest);
			}
		}
		const results = list.flatMap((e) => byExercise.get(e.id) ?? []);
		// Green tests with type errors are not green: the run fails as a red test would fail it.
		if (results.some((r) => r.typeErrors?.length)) process.exitCode = 1;
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

// Vitest's diff and a parser's message, without their colours: the short report paints its own.
const plain = (text?: string) => text?.replace(/\x1b\[[0-9;]*m/g, '').trim() ?? '';
