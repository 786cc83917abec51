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
// A worker's life on the scheduler, and where it may crash (CrashPoint), live in workers.ts.
// exploreAll() runs every interleaving (skipping states it has already been in) and judges each end.
import type { InMemoryDatabase, Contents, SharedDatabase } from '../database/database.ts';
import type { TraceLine } from './trace.ts';
import { beat } from '../core/watchdog.ts';
import { LeftOpen } from './left-open.ts';
import {
	SchedulerError,
	startWorkers,
	takeTurn,
	type Ending,
	type Slot,
	type WorkerPlan
} from './workers.ts';

export { LeftOpen } from './left-open.ts';
export { SchedulerError, type CrashPoint, type Ending, type WorkerPlan } from './workers.ts';

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

// The workers on one shared database, one operation a step, in the order the pick chooses.
export async function runWorkers<R, D extends SharedDatabase = InMemoryDatabase>(
	db: D,
	plans: readonly WorkerPlan<R>[],
	pick: Pick,
	options: RunOptions<R> = {}
): Promise<Run<R, D>> {
	const tell = options.tell ?? ((value: R) => `answers ${JSON.stringify(value)}`);
	const maxSteps = options.maxSteps ?? 10_000;
	refuseTwoOfAName(plans);
	// Step numbers go on from an earlier run on the same database, so one trace can tell several runs.
	const base = db.step;
	const slots = await startWorkers(db, plans, tell);
	const { steps, stopped } = await playTurns(db, slots, pick, base, maxSteps);
	const endings = new Map([...slots].map(([name, slot]) => [name, slot.ending]));
	const run = { endings, steps, trace: db.trace, db, committed: await db.committed(), stopped };
	// No code may hand its connection back inside a transaction: the first worker declared that did.
	const open = [...slots.values()].find((slot) => slot.leftOpen);
	if (open) throw new LeftOpen(open.plan.name, open.leftOpen!.said, open.leftOpen!.answered, db.trace, run);
	return run;
}

// Each worker's name is its own: the pick, the trace and the endings know workers by name.
function refuseTwoOfAName(plans: readonly WorkerPlan<unknown>[]): void {
	const names = new Set<string>();
	for (const plan of plans) {
		if (names.has(plan.name)) throw new SchedulerError(`two workers are called ${plan.name}`);
		names.add(plan.name);
	}
}

// Turn after turn, whoever the pick says, until every worker has ended or the pick stops the run.
async function playTurns<R>(
	db: SharedDatabase,
	slots: Map<string, Slot<R>>,
	pick: Pick,
	base: number,
	maxSteps: number
): Promise<{ steps: string[]; stopped: boolean }> {
	const steps: string[] = [];
	const state = () => stateOf(db, slots);
	for (;;) {
		const runnable = whoCanRun(db, slots);
		if (runnable === null) return { steps, stopped: false };
		if (steps.length >= maxSteps)
			throw new SchedulerError(`more than ${maxSteps} steps: does a worker loop forever?`);
		const chosen = pick({ runnable, step: base + steps.length + 1, state });
		if (chosen === null) return { steps, stopped: true };
		if (!runnable.includes(chosen)) {
			throw new SchedulerError(
				`the pick chose ${chosen}, which can't run now (can run: ${runnable.join(', ')})`
			);
		}
		steps.push(chosen);
		db.step = base + steps.length;
		beat();
		await takeTurn(slots.get(chosen)!);
	}
}

// The workers that can run now, in the order declared: parked on an operation, and not waiting for another
// worker's transaction. Null once every worker has ended; an error when every one left is waiting.
function whoCanRun<R>(db: SharedDatabase, slots: Map<string, Slot<R>>): string[] | null {
	const live = [...slots.values()].filter((s) => s.status === 'parked');
	if (live.length === 0) return null;
	const runnable = live.filter((s) => !db.blockedBy(s.plan.name)).map((s) => s.plan.name);
	if (runnable.length === 0) {
		throw new SchedulerError(`every worker left is waiting: ${live.map((s) => s.plan.name).join(', ')}`);
	}
	return runnable;
}

// The whole state as text, for the explorer to tell states it has already been in: the database, and where
// each worker is.
function stateOf<R>(db: SharedDatabase, slots: Map<string, Slot<R>>): string {
	return JSON.stringify([
		db.stateKey(),
		[...slots.values()].map((s) => [s.status, s.conn.heard, s.pending?.operation.name, s.ending])
	]);
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
		// A run a worker left inside its transaction is a wrong one: the judge's problem, then that.
		const { run, leftOpen } = await runWorkers(db, plans, pick, runOptions).then(
			(run) => ({ run, leftOpen: null }),
			(error: unknown) => {
				if (error instanceof LeftOpen && error.run) return { run: error.run as Run<R>, leftOpen: error };
				throw error;
			}
		);
		explored.runs++;
		if (run.stopped && !leftOpen) explored.pruned++;
		else {
			explored.complete++;
			const judged = run.stopped ? null : judge(run);
			const problem = leftOpen ? [judged, leftOpen.story].filter(Boolean).join('\n') : judged;
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
