// Every overlap of two requests: both are handed to the learner's routes at once, on the in-memory store, and
// the harness picks whose next store step runs, at every step, until every interleaving has been played (as
// 03's scheduler does for workers). A step that waits on a lock can't be picked until the lock is free. Two
// orders that differ only by two steps that commute (they meet at no lock, neither is a commit) end alike, and
// only the first of them is played.
//
//   const problem = await exploreOverlaps(code, overlap);   // null, or the story of the first bad interleaving
//   await exploreOverlaps(code, overlap, 5_000, { sleepSet: false, played });   // every order, each one told
//
// What each interleaving must end in: what one of the two orders, one request after the other, ends in, where
// either answer may be a 409 instead (still in progress: the client tries again), and no more tickets than that
// order made. Never a second ticket, a 500, a replay where the order says conflict, or a request that waits for
// ever.
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { NotWrittenYet } from '../core/todo.ts';
import { buildRoutes, call, saidAnswer, saidSend, saidSequence, sequenceStart } from './calls.ts';
import type { Answer, Call, Clock, Sequence } from './calls.ts';
import { MemoryStore, type MemoryStep } from './memory-store.ts';
import type { EndpointCode } from './play.ts';

// Two requests, after the sequence's steps have been played one at a time.
export type Overlap = { name: string; before: Sequence; pair: [Call, Call] };
type Ending = { answer: Answer | null; error: unknown };
export type Interleaving = {
	endings: Ending[];
	tickets: number;
	said: string[];
	decisions: [number, number][];
	// Left before its end: every order from there on is one already played, up to steps that commute.
	pruned: boolean;
};

const whose = new AsyncLocalStorage<number>();
// A request counts as hung when it takes no store step (and does not end) while the event loop sits idle for
// idleLimitMs in all: waiting, with nothing left to run that could bring the step. A loaded machine makes a
// step slower, never the loop idle, so load cannot trip it. busyLimitMs of wall clock bounds a request that
// keeps the loop busy for ever without a step; both only bound a hang, neither decides an outcome.
const idleLimitMs = 2_000;
const busyLimitMs = 30_000;
const lookEveryMs = 50;

// The waits under way, each for one request's next store step (or its end). One timer looks at all of them
// every lookEveryMs while any is under way: thousands of steps each setting and clearing a timer of its own
// cost more than the steps did.
type Waiting = { since: EventLoopUtilization; started: number; hung: () => void };
const waiting = new Set<Waiting>();
let looking: NodeJS.Timeout | null = null;

function look(): void {
	looking = null;
	for (const wait of waiting) {
		const idle = performance.eventLoopUtilization(wait.since).idle;
		if (idle >= idleLimitMs || performance.now() - wait.started >= busyLimitMs) {
			waiting.delete(wait);
			wait.hung();
		}
	}
	if (waiting.size) looking = setTimeout(look, lookEveryMs);
}

// Resolves once moved() is called, or rejects with "request N hung" (the rule above).
function stepOrHang(request: number, onMove: (moved: () => void) => void): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		const hung = () => reject(new Error(`request ${request + 1} hung`));
		const wait = { since: performance.eventLoopUtilization(), started: performance.now(), hung };
		waiting.add(wait);
		looking ??= setTimeout(look, lookEveryMs);
		onMove(() => (waiting.delete(wait), resolve()));
	});
}

async function prepared(code: EndpointCode, before: Sequence, clock: Clock): Promise<MemoryStore> {
	const store = new MemoryStore();
	const routes = buildRoutes(code, before, store, clock);
	for (const step of before.steps)
		if (step.do === 'wait') clock.time += step.minutes * 60_000;
		else await call(routes, step);
	return store;
}

// Two statements, one by each request, end alike in either order when neither takes (or tries) a lock the other
// takes or another transaction holds: what another transaction writes is seen only once it commits, a step of its
// own, and a statement that fails may roll its transaction back and free every lock it holds, so a lock is where
// two statements meet. An order that differs from one already played only by two such steps swapped is not played
// again (a sleep set: the request whose step was tried first sleeps while the steps taken since commute with its
// own). What is played first of each set of orders is what was played before, so the first bad interleaving,
// and its story, is the same.
const meets = (a: MemoryStep, b: MemoryStep) =>
	a.takes.some((lock) => b.takes.includes(lock) || a.heldByAnother(lock));
const commute = (a: MemoryStep, b: MemoryStep) =>
	a.name !== 'commit' && b.name !== 'commit' && !meets(a, b) && !meets(b, a);

// One interleaving: at the i-th choice between runnable requests, the choices[i]-th of them (or the first).
async function interleave(
	code: EndpointCode,
	overlap: Overlap,
	base: MemoryStore,
	clock: Clock,
	choices: number[],
	sleepSet: boolean
): Promise<Interleaving> {
	const paused = new Map<number, { step: MemoryStep; go: () => void }>();
	let moved: () => void = () => {};
	const store = base.copy(
		(step) =>
			new Promise<void>((go) => {
				paused.set(whose.getStore()!, { step, go });
				moved();
			})
	);
	const routes = buildRoutes(code, overlap.before, store, clock);
	const endings: (Ending | undefined)[] = [undefined, undefined];
	const next = (request: number) =>
		paused.has(request) || endings[request]
			? Promise.resolve()
			: stepOrHang(request, (resolve) => (moved = resolve));
	const said: string[] = [];
	const start = (request: number) => {
		const done = whose.run(request, () => call(routes, overlap.pair[request]!));
		void done.then(
			(answer) => (endings[request] = { answer, error: null }),
			(error: unknown) => (endings[request] = { answer: null, error })
		);
		void done.finally(() => moved());
		return next(request);
	};
	await start(0);
	await start(1);
	const decisions: [number, number][] = [];
	let asleep: number | null = null;
	for (;;) {
		const runnable = [...paused].filter(([, { step }]) => !step.blocked()).map(([request]) => request);
		if (runnable.length === 0) break;
		const awake = runnable.filter((request) => request !== asleep);
		if (awake.length === 0) return { endings: [], tickets: 0, said, decisions, pruned: true };
		let pick = awake[0]!;
		if (awake.length > 1) {
			const choice = choices[decisions.length] ?? 0;
			decisions.push([choice, awake.length]);
			pick = awake[choice]!;
			if (choice > 0 && sleepSet) asleep = awake[0]!;
		}
		const { step, go } = paused.get(pick)!;
		if (asleep !== null && asleep !== pick && !commute(paused.get(asleep)!.step, step)) asleep = null;
		paused.delete(pick);
		said.push(`request ${pick + 1}: ${step.name === 'commit' ? 'commit' : `tx.${step.name}()`}`);
		go();
		await next(pick);
	}
	for (const [request] of paused) said.push(`request ${request + 1} waits on a lock nothing will release`);
	const final = endings.map((ending) => ending ?? { answer: null, error: new Error('waits for ever') });
	for (const { error } of final) if (error instanceof NotWrittenYet) throw error;
	return { endings: final, tickets: store.rows.tickets.length, said, decisions, pruned: false };
}

// The two requests one after the other, in the order given: their answers and the tickets they made.
async function inOrder(code: EndpointCode, overlap: Overlap, order: [number, number]) {
	const clock = { time: sequenceStart };
	const store = await prepared(code, overlap.before, clock);
	const routes = buildRoutes(code, overlap.before, store, clock);
	const answers: Answer[] = [];
	for (const request of order) answers[request] = await call(routes, overlap.pair[request]!);
	return { answers, tickets: store.rows.tickets.length };
}

const same = (a: Answer | null, b: Answer) => a !== null && a.status === b.status && a.body === b.body;

// sleepSet false: every order played to its end (what reductions.test.ts compares with); played: each
// interleaving played to its end, told as it ends.
export type Exploring = { sleepSet?: boolean; played?: (interleaving: Interleaving) => void };

export async function exploreOverlaps(
	code: EndpointCode,
	overlap: Overlap,
	maxRuns = 5_000,
	{ sleepSet = true, played: tell }: Exploring = {}
) {
	const orders = [await inOrder(code, overlap, [0, 1]), await inOrder(code, overlap, [1, 0])];
	const clock = { time: sequenceStart };
	const base = await prepared(code, overlap.before, clock);
	const before = base.rows.tickets.length;
	let choices: number[] = [];
	for (let run = 0; run < maxRuns; run++) {
		const played = await interleave(code, overlap, base.copy(), { ...clock }, choices, sleepSet);
		if (!played.pruned) tell?.(played);
		const problem = played.pruned ? null : judgeOverlap(played, orders, before);
		if (problem) return tellOverlap(overlap, played, orders, problem);
		// The next interleaving: the last choice that has another option left takes it.
		const { decisions } = played;
		while (decisions.length && decisions.at(-1)![0] + 1 >= decisions.at(-1)![1]) decisions.pop();
		if (!decisions.length) return null;
		choices = decisions.map(([choice]) => choice);
		choices[choices.length - 1]! += 1;
	}
	return null;
}

type Ordered = { answers: Answer[]; tickets: number };

function judgeOverlap(played: Interleaving, orders: Ordered[], before: number): string | null {
	const made = played.tickets - before;
	for (const [i, { answer, error }] of played.endings.entries()) {
		if (!answer) return `request ${i + 1} got no answer: ${String(error)}`;
		if (answer.status >= 500) return `request ${i + 1} answered ${saidAnswer(answer)}`;
	}
	const fits = orders.some(
		(order) =>
			made <= order.tickets - before &&
			played.endings.every(({ answer }, i) => answer!.status === 409 || same(answer, order.answers[i]!))
	);
	if (fits) return null;
	const most = Math.max(...orders.map((order) => order.tickets - before));
	if (made > most)
		return `the two requests made ${made} tickets, where one after the other they make ${most}`;
	return 'the answers are not what either order gives (a 409 may stand in for either answer)';
}

function tellOverlap(overlap: Overlap, played: Interleaving, orders: Ordered[], problem: string): string {
	const answers = (list: (Answer | null)[]) => list.map((a, i) => `request ${i + 1}: ${saidAnswer(a)}`);
	const steps = [...overlap.before.steps, ...overlap.pair];
	const first = overlap.before.steps.length;
	return [
		`Overlap "${overlap.name}": two requests at once, interleaved at every store step. In this interleaving ${problem}.`,
		`  ${saidSend(steps, first)}`,
		`  ${saidSend(steps, first + 1)}`,
		'The interleaving:',
		...played.said.map((line, i) => `  ${i + 1}. ${line}`),
		'What each got:',
		...answers(played.endings.map((ending) => ending.answer)).map((line) => `  ${line}`),
		'One after the other (1 then 2, and 2 then 1) they get:',
		...answers(orders[0]!.answers).map((line) => `  ${line}`),
		...answers(orders[1]!.answers).map((line) => `  ${line}`),
		...(overlap.before.steps.length ? ['Before them:', saidSequence(overlap.before)] : [])
	].join('\n');
}

const webhook = (subject: string): Call => ({
	do: 'send',
	route: 'webhooks',
	json: { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject }
});
const ticket = (json: unknown): Call => ({ do: 'send', route: 'tickets', key: 'k-1', json });
const empty = (remember: Sequence['remember']): Sequence => ({ remember, retentionHours: 24, steps: [] });

// The overlaps every solution is held to: one key or one event, the same request or another, on empty tables
// and after the key (or the receipt) was saved and has expired.
export function overlaps(): Overlap[] {
	const expired: Sequence = { ...empty('everything'), steps: [ticket({ subject: 'Printer on fire' })] };
	expired.steps.push({ do: 'wait', minutes: 25 * 60 }, webhook('Cannot sign in'));
	const late: Sequence = { ...expired, steps: [...expired.steps, { do: 'wait', minutes: 25 * 60 }] };
	const printer = ticket({ subject: 'Printer on fire' });
	const more = ticket({ subject: 'Printer on fire', priority: 'high' });
	// Without a failing step, the policy changes nothing here: one is enough.
	return (['everything'] as const).flatMap((remember) => [
		{
			name: `one key, the same body (remember: ${remember})`,
			before: empty(remember),
			pair: [printer, printer]
		},
		{ name: `one key, another body (remember: ${remember})`, before: empty(remember), pair: [printer, more] },
		{
			name: `one event, two subjects (remember: ${remember})`,
			before: empty(remember),
			pair: [webhook('Cannot sign in'), webhook('Printer on fire')]
		},
		{
			name: `one event, the same subject (remember: ${remember})`,
			before: empty(remember),
			pair: [webhook('Cannot sign in'), webhook('Cannot sign in')]
		},
		{
			name: `one expired key, another body (remember: ${remember})`,
			before: { ...late, remember },
			pair: [more, printer]
		},
		{
			name: `one expired receipt, two subjects (remember: ${remember})`,
			before: { ...late, remember },
			pair: [webhook('Printer on fire'), webhook('Cannot sign in')]
		}
	]);
}
