// The workers of a run (scheduler.ts): what a worker is, where it may crash, and its life on the scheduler.
// Each plan runs in a slot of its own, with its own connection, until it asks for its next database operation
// (it parks there) or ends; the scheduler gives one parked worker its turn at a time.
//
//   const slots = await startWorkers(db, plans, tell); // each worker run up to its first operation
//   await takeTurn(slots.get('A')!);                    // A's operation runs, or A crashes when it is due
//   slots.get('A')!.ending;                             // { kind: 'answered', value } | { kind: 'crashed' }…
//
// Only one worker runs at a time. Workers are separate processes that share only the database: one that waits
// on anything else is stopped with a SchedulerError (a statement a real server is still answering is not
// that: its connection says so with `working`). When a worker ends, its connection closes with a sentence for
// the trace: what it answered, the error it stopped with, or that it crashed. One that answered or stopped
// with its transaction still open is marked (leftOpen), and runWorkers() throws LeftOpen (left-open.ts).
import {
	DatabaseError,
	type Connection,
	type Gate,
	type Operation,
	type SharedDatabase,
	type WorkerConnection
} from '../database/database.ts';

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

export class SchedulerError extends Error {
	override name = 'SchedulerError';
}

// One worker in a run: running, parked on its next operation (pending), done, or crashed.
export type Slot<R> = {
	plan: WorkerPlan<R>;
	conn: WorkerConnection;
	status: 'running' | 'parked' | 'done' | 'crashed';
	pending: { operation: Operation; go: () => void } | null;
	signal: () => void;
	ending: Ending<R>;
	// What the worker said as it returned or threw with its transaction still open (left-open.ts).
	leftOpen: { said: string; answered: boolean } | null;
};

// What a worker says when it answers: "answers 1", unless the run's options say it in other words.
export type Tell<R> = (value: R) => string;

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

// An error as LeftOpen names it: a database error by its code, any other by its message.
function shortError(ending: Ending<unknown>): string {
	const error = ending.kind === 'failed' ? ending.error : null;
	if (error instanceof DatabaseError) return error.code.replace('-', ' ');
	return error instanceof Error ? error.message : String(error);
}

// The database asks the gate before each operation: the worker parks there until the scheduler picks it.
function gateFor<R>(slots: Map<string, Slot<R>>): Gate {
	return {
		turn(worker, operation) {
			const slot = slots.get(worker)!;
			if (slot.status !== 'running') {
				const why = `${worker} asked for ${operation.name} while another of its calls was still waiting its turn. A worker here does one database operation at a time, as one connection does: await each call before the next (no Promise.all over one worker's calls).`;
				return Promise.reject(new SchedulerError(why));
			}
			return new Promise<void>((go) => {
				slot.pending = { operation, go };
				slot.status = 'parked';
				slot.signal();
			});
		}
	};
}

// Each worker in the order declared, with a connection of its own, run until it first parks or ends.
export async function startWorkers<R>(
	db: SharedDatabase,
	plans: readonly WorkerPlan<R>[],
	tell: Tell<R>
): Promise<Map<string, Slot<R>>> {
	const slots = new Map<string, Slot<R>>();
	const gate = gateFor(slots);
	for (const plan of plans) {
		const slot: Slot<R> = {
			plan,
			conn: await db.connect(plan.name, gate),
			status: 'running',
			pending: null,
			signal: () => {},
			ending: { kind: 'stopped' },
			leftOpen: null
		};
		slots.set(plan.name, slot);
		const started = signalFor(slot);
		Promise.resolve()
			.then(() => plan.run(slot.conn))
			.then(
				(value) => finish(slot, { kind: 'answered', value }, tell),
				(error: unknown) => finish(slot, { kind: 'failed', error }, tell)
			);
		await runUntilParked(slot, started);
	}
	return slots;
}

// The picked worker's turn: its operation runs, and the worker goes on until it parks again or ends. When its
// crash point has come, it dies instead.
export async function takeTurn<R>(slot: Slot<R>): Promise<void> {
	const { go, operation } = slot.pending!;
	slot.pending = null;
	if (crashDue(slot.plan.crash, slot.conn, operation)) {
		slot.status = 'crashed';
		slot.ending = { kind: 'crashed' };
		await slot.conn.close(`${slot.plan.name} crashes.`);
		return;
	}
	slot.status = 'running';
	const next = signalFor(slot);
	go();
	await runUntilParked(slot, next);
}

// Lets one worker run until it asks for its next operation or ends. While a real server works on its
// statement, the worker is neither stalled nor parked: wait for the server's answer (or its lock wait).
async function runUntilParked<R>(slot: Slot<R>, started: Promise<void>): Promise<void> {
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

// Resolves when the worker next parks or ends.
function signalFor<R>(slot: Slot<R>): Promise<void> {
	return new Promise<void>((resolve) => (slot.signal = resolve));
}

// The worker ended: its connection closes (on a real server that takes a round trip), then it is done.
async function finish<R>(slot: Slot<R>, ending: Ending<R>, tell: Tell<R>): Promise<void> {
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
		// Read before close(), which rolls it back: the learner's call came back with it open.
		if (slot.conn.inTransaction)
			slot.leftOpen =
				ending.kind === 'answered'
					? { said: `${name} ${said}`, answered: true }
					: { said: `${name} stops with an error: ${shortError(ending)}`, answered: false };
		await slot.conn.close(`${name} ${said}.`);
	}
	slot.status = 'done';
	slot.signal();
}
