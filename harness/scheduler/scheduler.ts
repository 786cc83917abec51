// A deterministic scheduler: workers share one database (an InMemoryDatabase, or PostgreSQL through
// postgres/connection.ts), and a pick function says whose next database operation runs at each step, so a run
// is repeatable to the step and its trace reads as sentences.
//
//   const db = new InMemoryDatabase();
//   const run = await runWorkers(db, [
//   	{ name: 'A', run: (conn) => handle(conn, evt42) },
//   	{ name: 'B', run: (conn) => handle(conn, evt42), crash: { when: 'after', operation: 'save-ticket' } }
//   ], inTurn(['A', 'B', 'A', 'B']));  // B's crash takes its turn after save-ticket: see CrashPoint
//   run.endings.get('A');   // { kind: 'answered', value } | { kind: 'crashed' } | { kind: 'failed', error } | …
//   tellTrace(run.trace);   // "1. A looks for a receipt for acme/helpdesk/evt-42: none." …
//
// Each worker runs until it asks for a database operation (or conn.outside(...)), then waits. Only one worker
// runs at a time. A worker waiting on another transaction's key can't be picked until that one ends. Workers
// are separate processes that share only the database: one that waits on anything else is stopped with an
// error (a statement a real server is still answering is not that: its connection says so with `working`).
// exploreAll() runs every interleaving (skipping states it has already been in) and judges each end.
import {
	DatabaseError,
	type Connection,
	type Gate,
	type InMemoryDatabase,
	type Contents,
	type Operation,
	type SharedDatabase,
	type WorkerConnection
} from '../database/database.ts';
import type { TraceLine } from './trace.ts';

// Where a worker dies. The crash takes the worker's next turn: once its point has come, the next time the
// worker is picked it dies instead of running its operation, and its open transaction rolls back. So other
// workers may run between the operation and the crash (a lock held by a worker about to die). A worker
// whose point never comes dies before it answers.
export type CrashPoint =
	| { when: 'after'; operation: string; nth?: number } // after its nth operation of this name (default 1)
	| { when: 'after-operations'; count: number } // after its count-th operation (0: at its first turn)
	| { when: 'before-write' } // at the turn of its first operation that saves or changes a row
	| { when: 'before-commit' } // at the turn of its first operation that would make a write durable
	| { when: 'before-answering' }; // after all its work, before it answers

export type WorkerPlan<R> = {
	name: string;
	run: (conn: Connection) => Promise<R>;
	crash?: CrashPoint | null;
};

export type Ending<R> =
	| { kind: 'answered'; value: R }
	| { kind: 'crashed' }
	| { kind: 'failed'; error: unknown }
	| { kind: 'stopped' }; // the run was stopped before this worker ended

// What the pick function sees: the workers that can run now (in the order declared), the step about to run,
// and the whole state as text (computed only when asked for).
export type Choice = { runnable: readonly string[]; step: number; state: () => string };
// Returns the worker to run next, or null to stop the run here.
export type Pick = (choice: Choice) => string | null;

export type Run<R, D extends SharedDatabase = InMemoryDatabase> = {
	endings: Map<string, Ending<R>>;
	steps: string[]; // who ran at each step
	trace: TraceLine[];
	db: D;
	committed: Contents; // what was committed when the run ended
	stopped: boolean;
};

export type RunOptions<R> = { tell?: (value: R) => string; maxSteps?: number };

export class SchedulerError extends Error {
	override name = 'SchedulerError';
}

type Slot<R> = {
	plan: WorkerPlan<R>;
	conn: WorkerConnection;
	status: 'running' | 'parked' | 'done' | 'crashed';
	pending: { operation: Operation; go: () => void } | null;
	signal: () => void;
	ending: Ending<R>;
};

// Plays the schedule's interleaving: each name is one step of that worker. A name whose worker has finished,
// or is waiting for another transaction, is passed over. When the list runs out, the workers still running go
// one at a time, in the order they are declared, each to its end.
export function inTurn(list: readonly string[]): Pick {
	let next = 0;
	return ({ runnable }) => {
		while (next < list.length) {
			const name = list[next++]!;
			if (runnable.includes(name)) return name;
		}
		return runnable[0] ?? null;
	};
}

// Each worker to its end, in the order declared.
export const oneAtATime = (): Pick => inTurn([]);

// Choices from a list of numbers (a fast-check property's), each taken modulo the number of workers that can run.
export function fromNumbers(numbers: readonly number[]): Pick {
	let next = 0;
	return ({ runnable }) => runnable[(numbers[next++] ?? 0) % runnable.length] ?? null;
}

const stalled = Symbol('stalled');

// Resolves with stalled if the worker neither asks for an operation nor ends while other work settles; early
// when the worker sends a statement to a real server (busy), whose answer may take longer.
function settle(signal: Promise<void>, busy: () => boolean): Promise<void | typeof stalled> {
	let rounds = 0;
	let timer: ReturnType<typeof setImmediate> | undefined;
	const stall = new Promise<typeof stalled | void>((resolve) => {
		const again = () =>
			busy() ? resolve() : ++rounds > 20 ? resolve(stalled) : (timer = setImmediate(again));
		timer = setImmediate(again);
	});
	return Promise.race([signal, stall]).finally(() => clearImmediate(timer));
}

function crashDue(
	point: CrashPoint | null | undefined,
	conn: WorkerConnection,
	next: Operation | null
): boolean {
	if (!point) return false;
	switch (point.when) {
		case 'after':
			return conn.done.filter((name) => name === point.operation).length >= (point.nth ?? 1);
		case 'after-operations':
			return conn.done.length >= point.count;
		case 'before-commit':
			return next?.commits === true;
		case 'before-write':
			return next?.writes === true;
		case 'before-answering':
			return false;
	}
}

function saidError(error: unknown): string {
	if (error instanceof DatabaseError) return `${error.code.replace('-', ' ')} (${error.message})`;
	return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function runWorkers<R, D extends SharedDatabase = InMemoryDatabase>(
	db: D,
	plans: readonly WorkerPlan<R>[],
	pick: Pick,
	options: RunOptions<R> = {}
): Promise<Run<R, D>> {
	const tell = options.tell ?? ((value: R) => `answers ${JSON.stringify(value)}`);
	const maxSteps = options.maxSteps ?? 10_000;
	const names = new Set<string>();
	for (const plan of plans) {
		if (names.has(plan.name)) throw new SchedulerError(`two workers are called ${plan.name}`);
		names.add(plan.name);
	}
	const slots = new Map<string, Slot<R>>();
	const gate: Gate = {
		turn(worker, operation) {
			const slot = slots.get(worker)!;
			if (slot.status !== 'running') {
				const why = `${worker} asked for ${operation.name} while it was not running: await each operation before the next`;
				return Promise.reject(new SchedulerError(why));
			}
			return new Promise<void>((go) => {
				slot.pending = { operation, go };
				slot.status = 'parked';
				slot.signal();
			});
		}
	};

	// Lets one worker run until it asks for its next operation or ends. While a real server works on its
	// statement, the worker is neither stalled nor parked: wait for the server's answer (or its lock wait).
	async function runUntilParked(slot: Slot<R>, started: Promise<void>): Promise<void> {
		const busy = () => slot.conn.working !== null;
		for (;;) {
			// A worker usually parks within a few microtasks; only one that doesn't costs an event-loop turn.
			for (let hop = 0; hop < 200 && slot.status === 'running' && !busy(); hop++) await undefined;
			if (slot.status !== 'running') return;
			if (busy()) {
				await slot.conn.working;
				continue;
			}
			const settled = await settle(started, busy);
			if (settled !== stalled) continue;
			if (slot.status !== 'running') return;
			throw new SchedulerError(
				`${slot.plan.name} is waiting for something that is not a database operation. Workers are separate processes: they share only the database, so a lock or a promise in memory can't coordinate them.`
			);
		}
	}

	function signalFor(slot: Slot<R>): Promise<void> {
		return new Promise<void>((resolve) => (slot.signal = resolve));
	}

	// The worker ended: its connection closes (on a real server that takes a round trip), then it is done.
	async function finish(slot: Slot<R>, ending: Ending<R>): Promise<void> {
		if (slot.status === 'crashed') return;
		const name = slot.plan.name;
		if (slot.plan.crash) {
			slot.ending = { kind: 'crashed' };
			await slot.conn.close(`${name} crashes before it answers.`);
		} else {
			slot.ending = ending;
			const said =
				ending.kind === 'answered'
					? tell(ending.value)
					: `stops with an error: ${saidError(ending.kind === 'failed' ? ending.error : null)}`;
			await slot.conn.close(`${name} ${said}.`);
		}
		slot.status = 'done';
		slot.signal();
	}

	// Step numbers go on from an earlier run on the same database, so one trace can tell several runs.
	const base = db.step;
	for (const plan of plans) {
		const slot: Slot<R> = {
			plan,
			conn: await db.connect(plan.name, gate),
			status: 'running',
			pending: null,
			signal: () => {},
			ending: { kind: 'stopped' }
		};
		slots.set(plan.name, slot);
		const started = signalFor(slot);
		Promise.resolve()
			.then(() => plan.run(slot.conn))
			.then(
				(value) => finish(slot, { kind: 'answered', value }),
				(error: unknown) => finish(slot, { kind: 'failed', error })
			);
		await runUntilParked(slot, started);
	}

	const steps: string[] = [];
	const stateOf = () =>
		JSON.stringify([
			db.stateKey(),
			[...slots.values()].map((s) => [s.status, s.conn.heard, s.pending?.operation.name, s.ending])
		]);
	let stopped = false;
	for (;;) {
		const live = [...slots.values()].filter((s) => s.status === 'parked');
		if (live.length === 0) break;
		const runnable = live.filter((s) => !db.blockedBy(s.plan.name)).map((s) => s.plan.name);
		if (runnable.length === 0) {
			throw new SchedulerError(`every worker left is waiting: ${live.map((s) => s.plan.name).join(', ')}`);
		}
		if (steps.length >= maxSteps)
			throw new SchedulerError(`more than ${maxSteps} steps: does a worker loop forever?`);
		const chosen = pick({ runnable, step: base + steps.length + 1, state: stateOf });
		if (chosen === null) {
			stopped = true;
			break;
		}
		if (!runnable.includes(chosen)) {
			throw new SchedulerError(
				`the pick chose ${chosen}, which can't run now (can run: ${runnable.join(', ')})`
			);
		}
		const slot = slots.get(chosen)!;
		steps.push(chosen);
		db.step = base + steps.length;
		const { go, operation } = slot.pending!;
		slot.pending = null;
		if (crashDue(slot.plan.crash, slot.conn, operation)) {
			slot.status = 'crashed';
			slot.ending = { kind: 'crashed' };
			await slot.conn.close(`${chosen} crashes.`);
			continue;
		}
		slot.status = 'running';
		const next = signalFor(slot);
		go();
		await runUntilParked(slot, next);
	}
	const endings = new Map([...slots].map(([name, slot]) => [name, slot.ending]));
	return { endings, steps, trace: db.trace, db, committed: await db.committed(), stopped };
}

export type Explored<R> = {
	runs: number; // runs started
	complete: number; // runs that reached the end
	pruned: number; // runs stopped at a state already explored
	failed: number; // complete runs the judge found a problem with
	failures: { run: Run<R>; problem: string }[]; // the first few of them
};

export type ExploreOptions = { prune?: boolean; stopAtFirstFailure?: boolean; maxRuns?: number };

// Every interleaving: a depth-first walk over the choices, replaying a fresh database for each run. With prune
// (the default), a run stops at a state some earlier run has already been in, since the rest would be the same.
export async function exploreAll<R>(
	setUp: () => { db: InMemoryDatabase; plans: readonly WorkerPlan<R>[]; options?: RunOptions<R> },
	judge: (run: Run<R>) => string | null,
	options: ExploreOptions = {}
): Promise<Explored<R>> {
	const prune = options.prune ?? true;
	const seen = new Set<string>();
	const explored: Explored<R> = { runs: 0, complete: 0, pruned: 0, failed: 0, failures: [] };
	let prefix: number[] = [];
	for (;;) {
		const widths: number[] = [];
		const chosen: number[] = [];
		const pick: Pick = (choice) => {
			let index = prefix[chosen.length];
			if (index === undefined) {
				if (prune) {
					const state = choice.state();
					if (seen.has(state)) return null;
					seen.add(state);
				}
				index = 0;
			}
			widths.push(choice.runnable.length);
			chosen.push(index);
			return choice.runnable[index]!;
		};
		const { db, plans, options: runOptions } = setUp();
		const run = await runWorkers(db, plans, pick, runOptions);
		explored.runs++;
		if (run.stopped) explored.pruned++;
		else {
			explored.complete++;
			const problem = judge(run);
			if (problem !== null) {
				explored.failed++;
				if (explored.failures.length < 5) explored.failures.push({ run, problem });
				if (options.stopAtFirstFailure) break;
			}
		}
		if (options.maxRuns && explored.runs >= options.maxRuns) break;
		let k = chosen.length - 1;
		while (k >= 0 && chosen[k]! + 1 >= widths[k]!) k--;
		if (k < 0) break;
		prefix = [...chosen.slice(0, k), chosen[k]! + 1];
	}
	return explored;
}
