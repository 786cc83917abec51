// The learner's test threads, watched: a synchronous loop in learner code that never returns is stopped after
// a time limit, the run says which test and which step did not return, and the files after it still run.
//
//   // vitest.config.ts, the exercises project:
//   pool: watchedThreads(), setupFiles: ['lib/watchdog/setup.ts']
//
// Vitest's testTimeout cannot do this: a loop that never returns holds its thread, timers and all. So each
// test thread is started here, in Vitest's own thread, with memory the two share; the thread beats in it ten
// times a second (harness/core/watchdog.ts). When the beat stops for longer than the limit, the thread is
// ended (Worker.terminate stops even a synchronous loop), the story is recorded (./hangs.ts) and given to
// Vitest as an error of the run, and a fresh thread runs the test files that came after the stuck one.
// The limit is 5 seconds; on a slow machine, `npm test exercises/01 --time-limit=15` (or the environment's
// LEARNER_TIME_LIMIT, in seconds) gives more.
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, Vitest, WorkerRequest } from 'vitest/node';
import { layout, memoryBytes, readRunning } from '#harness/core/watchdog.ts';
import { didNotReturn, recordHang, type Hang } from './hangs.ts';

export const timeLimitSeconds = (env = process.env): number => {
	const given = Number(env.npm_config_time_limit ?? env.LEARNER_TIME_LIMIT);
	return Number.isFinite(given) && given > 0 ? given : 5;
};

export const watchedThreads = (): PoolRunnerInitializer => ({
	name: 'watched-threads',
	createPoolWorker: (options) => new WatchedThread(options)
});

type Listener = (arg: unknown) => void;
type Run = Extract<WorkerRequest, { type: 'run' | 'collect' }>;
const finished = { __vitest_worker_response__: true, type: 'testfileFinished' };
const stopped = { __vitest_worker_response__: true, type: 'stopped' };

class WatchedThread implements PoolWorker {
	readonly name = 'watched-threads';
	private thread?: Worker;
	private memory = new SharedArrayBuffer(memoryBytes);
	private watch?: NodeJS.Timeout;
	// Vitest listens here, not on a thread: a thread ended for a hang is replaced, and its exit is not news.
	private events = new EventEmitter();
	private start_?: WorkerRequest;
	private run?: Run;
	private readonly entrypoint: string;

	constructor(private options: PoolOptions) {
		// The threads pool's own entry point: the thread runs the tests exactly as pool: 'threads' does.
		this.entrypoint = resolve(options.distPath, 'workers/threads.js');
	}

	on(event: string, callback: Listener): void {
		this.events.on(event, callback);
	}

	off(event: string, callback: Listener): void {
		this.events.off(event, callback);
	}

	send(message: WorkerRequest): void {
		if (message.type === 'stop') return this.askToStop(message);
		if (message.type === 'start') this.start_ = message;
		if (message.type === 'run' || message.type === 'collect') this.run = message;
		this.running.postMessage(message);
	}

	// Vitest asks a thread to stop (Ctrl-C, the end of a run) and waits up to a minute for its answer. A stuck
	// thread cannot answer: after a second it is answered for, and stop() ends it. One Ctrl-C is enough.
	private askToStop(message: WorkerRequest): void {
		const thread = this.running;
		let answered = false;
		const onStopped = (response: { type?: string }) => {
			if (response?.type === 'stopped') answered = true;
		};
		thread.on('message', onStopped);
		thread.postMessage(message);
		setTimeout(() => {
			thread.off('message', onStopped);
			if (!answered && thread === this.thread) this.events.emit('message', stopped);
		}, 1000).unref();
	}

	deserialize(data: unknown): unknown {
		return data;
	}

	async start(): Promise<void> {
		if (this.thread) return;
		const { outputStream, errorStream } = this.options.project.vitest.logger;
		this.memory = new SharedArrayBuffer(memoryBytes);
		const thread = new Worker(this.entrypoint, {
			env: this.options.env,
			execArgv: this.options.execArgv,
			stdout: true,
			stderr: true,
			workerData: { [layout.key]: this.memory }
		});
		thread.stdout.pipe(outputStream, { end: false });
		thread.stderr.pipe(errorStream, { end: false });
		for (const event of ['message', 'error', 'exit'])
			thread.on(event, (arg: unknown) => thread === this.thread && this.events.emit(event, arg));
		this.thread = thread;
		this.watchBeat();
	}

	async stop(): Promise<void> {
		clearInterval(this.watch);
		const thread = this.thread;
		this.thread = undefined;
		await thread?.terminate();
		thread?.stdout.unpipe();
		thread?.stderr.unpipe();
	}

	// Counts from the first beat: a thread still starting Vitest is not the learner's code.
	private watchBeat(): void {
		const limit = timeLimitSeconds() * 1000;
		let last = 0;
		let since = Date.now();
		clearInterval(this.watch);
		this.watch = setInterval(() => {
			const now = readRunning(this.memory);
			if (now.beat !== last || now.beat === 0) {
				[last, since] = [now.beat, Date.now()];
				return;
			}
			if (Date.now() - since < limit) return;
			clearInterval(this.watch);
			void this.replace(recordHang({ test: now.test, step: now.step, seconds: limit / 1000 }));
		}, 100);
		this.watch.unref();
	}

	// Ends the stuck thread, tells Vitest why, and runs the files after the stuck one in a fresh thread.
	private async replace(hang: Hang): Promise<void> {
		failTheStuckTest(this.options.project.vitest, hang);
		await this.stop();
		const files = this.run?.context.files ?? [];
		const stuck = files.findIndex((file) => file.filepath === hang.file);
		const rest = stuck >= 0 ? files.slice(stuck + 1) : [];
		await this.start();
		const thread = this.thread!;
		if (this.start_) {
			const started = new Promise<void>((done) => {
				const onStarted = (message: { type?: string }) => {
					if (message?.type !== 'started') return;
					thread.off('message', onStarted);
					done();
				};
				thread.on('message', onStarted);
			});
			thread.postMessage(this.start_);
			await started;
		}
		if (this.run && rest.length)
			thread.postMessage({ ...this.run, context: { ...this.run.context, files: rest } });
		else this.events.emit('message', finished);
	}

	private get running(): Worker {
		if (!this.thread) throw new Error('The watched test thread was not started, or was stopped.');
		return this.thread;
	}
}

// The stuck test fails with the story, as if it had thrown it, so every report and the UI show it where the
// test is; a file stuck while it loaded fails as a file that did not load.
type Task = { type: string; mode?: string; result?: { state: string; errors?: unknown[] }; tasks?: Task[] };
type State = {
	idMap: Map<string, Task>;
	filesMap: Map<string, Task[]>;
	catchError(e: unknown, type: string): void;
};

function failTheStuckTest(vitest: Vitest, hang: Hang): void {
	const state = (vitest as unknown as { state: State }).state;
	const error = { name: 'Error', message: didNotReturn(hang) };
	const [file] = state.filesMap.get(hang.file) ?? [];
	const test = hang.id ? state.idMap.get(hang.id) : undefined;
	if (!file && !test) return state.catchError(new Error(error.message), 'Unhandled Error');
	if (test) test.result = { ...test.result, state: 'fail', errors: [error] };
	if (file) file.result = { ...file.result, state: 'fail', errors: test ? file.result?.errors : [error] };
	// The tests the stuck one kept from running did not run.
	const notRun = (task: Task): void => {
		if (task !== test && task.type === 'test' && !task.result) task.mode = 'skip';
		task.tasks?.forEach(notRun);
	};
	if (file) notRun(file);
}
