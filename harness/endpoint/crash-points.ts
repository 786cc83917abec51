// Every crash point of every request: the request is stopped at each step it takes against the store, then the
// client retries it (same key, same body), and what the lesson promises is checked.
//
//   const problem = await exploreCrashPoints(code, sequence, start, fresh);   // null, or the first broken promise
//   await exploreCrashPoints(code, sequence, start, fresh, everyPoint, record, { share: false });   // every point played
//
// The steps: the start of each transaction (after the one before it committed), each statement, each commit,
// and the end (the route made its answer, the connection drops before it is sent). A crash at a step is one the
// route cannot tell from a real one: that store call throws, the open transaction rolls back, every later call
// throws too, and whatever the route answers is lost. The retry goes to a route built again, as another worker.
// The promises, request by request, against the same request played without a crash: a crash before any commit
// leaves the tables as they were; the retry gets the answer the uncrashed request got (a first creation, or
// that answer replayed), and the crash and the retry together make at most the one ticket it made.
// Works on any Store: on the in-memory one (memory-store.ts) every point is cheap; PostgreSQL gets a sample.
// Points that leave the same commits done share one crash and one retry (a crash before any commit, the request
// alone as its retry); each point is still judged, so the first broken one is named as if each were played.
import type { Store, Transaction } from './contract.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { buildRoutes, call, saidAnswer, saidSend, saidSequence, sequenceStart } from './calls.ts';
import type { Answer, Call, Clock, Sequence } from './calls.ts';
import type { EndpointCode } from './play.ts';
import type { StoreContents } from './postgres-store.ts';

class WorkerDied extends Error {
	override name = 'WorkerDied';
	constructor() {
		super('the worker died (the harness crashed it here)');
	}
}
class StepFailed extends Error {
	override name = 'StepFailed';
	constructor() {
		super('saving the ticket failed (the sequence made this step fail)');
	}
}

type StepKind = 'begin' | 'statement' | 'commit' | 'end';
export type StoreStep = { kind: StepKind; transaction: number; name: string; writes: boolean };
const writing = new Set(['saveKey', 'forgetKey', 'createTicket', 'saveReceipt', 'forgetReceipt']);

// The store as one request sees it: every step recorded, and a crash at step crashAt (counting from 0).
export class CrashingStore implements Store {
	readonly steps: StoreStep[] = [];
	crashed = false;
	private transactions = 0;
	constructor(
		private readonly inner: Store,
		private readonly crashAt: number | null,
		private readonly stepFails: boolean
	) {}

	point(step: StoreStep): void {
		if (this.crashed) throw new WorkerDied();
		this.steps.push(step);
		if (this.steps.length - 1 === this.crashAt) {
			this.crashed = true;
			throw new WorkerDied();
		}
	}

	async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
		const transaction = ++this.transactions;
		this.point({ kind: 'begin', transaction, name: 'begin', writes: false });
		let writes = false;
		return this.inner.transaction(async (tx) => {
			const stepped = new Proxy(tx, {
				get: (target, name: string) => {
					const method = target[name as keyof Transaction] as (...args: unknown[]) => Promise<unknown>;
					return async (...args: unknown[]) => {
						writes ||= writing.has(name);
						this.point({ kind: 'statement', transaction, name, writes: writing.has(name) });
						if (name === 'createTicket' && this.stepFails) throw new StepFailed();
						return method.apply(target, args);
					};
				}
			});
			const result = await work(stepped);
			this.point({ kind: 'commit', transaction, name: 'commit', writes });
			return result;
		});
	}
}

type Played = { answer: Answer | null; steps: StoreStep[]; error: unknown };

async function playOne(
	code: EndpointCode,
	sequence: Sequence,
	store: Store,
	clock: Clock,
	send: Call,
	crashAt: number | null
): Promise<Played> {
	const crashing = new CrashingStore(store, crashAt, send.stepFails ?? false);
	const routes = buildRoutes(code, sequence, crashing, clock);
	let answer: Answer | null = null;
	let error: unknown = null;
	try {
		answer = await call(routes, send);
	} catch (thrown) {
		// A stub says so, crash or none: there is nothing else to learn from it.
		if (thrown instanceof NotWrittenYet) throw thrown;
		error = thrown;
	}
	if (!crashing.crashed) crashing.steps.push({ kind: 'end', transaction: 0, name: 'end', writes: false });
	if (crashing.steps.length - 1 === crashAt) crashing.crashed = true;
	return {
		answer: crashing.crashed ? null : answer,
		steps: crashing.steps,
		error: crashing.crashed ? null : error
	};
}

// Where a step is, in words: "between your two commits (after transaction 1 committed, before transaction 2)".
export function saidPoint(steps: StoreStep[], at: number): string {
	const step = steps[at]!;
	const commitsBefore = steps.slice(0, at).filter((s) => s.kind === 'commit' && s.writes).length;
	const commitsAfter = steps.slice(at).filter((s) => s.kind === 'commit' && s.writes).length;
	const between = (where: string) =>
		commitsBefore > 0 && commitsAfter > 0 ? `between your two commits (${where})` : where;
	if (step.kind === 'end') return 'after your last commit, before the answer reached the client';
	if (step.kind === 'commit') return between(`just before transaction ${step.transaction} commits`);
	if (step.kind === 'begin' && step.transaction > 1)
		return between(
			`after transaction ${step.transaction - 1} began or committed, before transaction ${step.transaction}`
		);
	if (step.kind === 'begin') return 'before your first transaction';
	const committed = steps
		.slice(0, at)
		.filter((s) => s.kind === 'commit' && s.writes)
		.map((s) => s.transaction);
	const after = committed.length ? `, after transaction ${committed.join(' and ')} committed` : '';
	return between(`at tx.${step.name}() in transaction ${step.transaction}${after}`);
}

export type ExploredStore = Store & { contents(): Promise<StoreContents> };
// Which points to try at a request: all of them on the in-memory store, a sample on PostgreSQL.
export type Points = (count: number, request: number) => number[];
export const everyPoint: Points = (count) => [...Array(count).keys()];

// The commits a crash at step at leaves done: those whose commit step comes before it. A crash rolls the open
// transaction back and every later call throws, so points with the same commits before them leave the same tables,
// and their retries (a route built again, as another worker, on those tables) are the same play.
const commitsBefore = (steps: StoreStep[], at: number) =>
	steps.slice(0, at).filter((step) => step.kind === 'commit').length;
const sameSteps = (a: StoreStep[], b: StoreStep[], count: number) =>
	JSON.stringify(a.slice(0, count)) === JSON.stringify(b.slice(0, count));

type AfterCrash = Pick<Judged, 'afterCrash' | 'retry' | 'after'>;
type Alone = Pick<Judged, 'reference' | 'referenceAfter'>;
type Play = (store: ExploredStore, crashAt: number | null) => Promise<Played>;

// One crash at step at, on a store holding the tables the request starts from, then its retry; its steps say
// whether it did what the request alone did up to the crash. Given alone (the crash left no commit done, so the
// retry starts from the request's own tables, a route built again, as the request alone did), that is its retry.
async function crashThenRetry(
	play: Play,
	crashed: ExploredStore,
	at: number,
	reference: Played,
	alone: Alone | null
): Promise<AfterCrash & { repeated: boolean }> {
	const { steps } = await play(crashed, at);
	const afterCrash = await crashed.contents();
	const repeated = sameSteps(steps, reference.steps, at + 1);
	const again = repeated ? alone : null;
	const retry = again ? again.reference : await play(crashed, null);
	const after = again ? again.referenceAfter : await crashed.contents();
	return {
		afterCrash,
		retry: { ...retry, error: retry.error === null ? null : String(retry.error) },
		after,
		repeated
	};
}

// The crash and retry at each point chosen: one played for each set of points that leave the same commits done,
// the set that reaches furthest first (its crash replays the most of the request). Where a played crash took other
// steps than the request alone up to it (a route that does not take the same steps twice), every point is played.
// Not shared (share false), every point is played, as before there was sharing: what reductions.test.ts compares.
async function crashesOf(
	play: Play,
	fresh: () => Promise<ExploredStore>,
	chosen: number[],
	alone: Alone,
	share: boolean
): Promise<AfterCrash[]> {
	const { reference } = alone;
	const crashes: AfterCrash[] = [];
	if (!share) {
		for (const at of chosen) {
			const { repeated: _, ...crash } = await crashThenRetry(play, await fresh(), at, reference, null);
			crashes.push(crash);
		}
		return crashes;
	}
	const setOf = (at: number) => commitsBefore(reference.steps, at);
	const firsts = new Map<number, number>();
	for (const at of chosen) if (!firsts.has(setOf(at))) firsts.set(setOf(at), at);
	const played = new Map<number, AfterCrash>();
	let repeats = true;
	for (const [commits, at] of [...firsts].reverse()) {
		const { repeated, ...crash } = await crashThenRetry(
			play,
			await fresh(),
			at,
			reference,
			commits ? null : alone
		);
		played.set(at, crash);
		repeats = repeated;
		if (!repeats) break;
	}
	for (const at of chosen) {
		const shared = played.get(repeats ? firsts.get(setOf(at))! : at);
		crashes.push(shared ?? (await crashThenRetry(play, await fresh(), at, reference, null)));
	}
	return crashes;
}

// fresh(rows): a store holding those committed rows and nothing else, for one crash and its retry.
// Each crash is played once for the points that leave the same commits done (commitsBefore), and judged at every
// point: the first broken one is named, as if each were played. A crash with no commit before it leaves the tables
// the request started from, so its retry is the request alone, played already (crashesOf).
export async function exploreCrashPoints(
	code: EndpointCode,
	sequence: Sequence,
	start: ExploredStore,
	fresh: (rows: ExploredStore) => Promise<ExploredStore>,
	points: Points = everyPoint,
	// Given, every crash is handed to it and none judged here: the grader judges them outside (tellCrash).
	record?: (crash: RecordedCrash) => void,
	{ share = true }: { share?: boolean } = {}
): Promise<string | null> {
	const clock = { time: sequenceStart };
	let store = start;
	let request = 0;
	for (const [i, step] of sequence.steps.entries()) {
		if (step.do === 'wait') {
			clock.time += step.minutes * 60_000;
			continue;
		}
		request++;
		const before = await store.contents();
		const alone = await fresh(store);
		const play = (on: ExploredStore, crashAt: number | null) =>
			playOne(code, sequence, on, clock, step, crashAt);
		const reference = await play(alone, null);
		const referenceAfter = await alone.contents();
		const chosen = points(reference.steps.length, request);
		const crashes = await crashesOf(play, () => fresh(store), chosen, { reference, referenceAfter }, share);
		for (const [n, at] of chosen.entries()) {
			const judged: Judged = {
				reference,
				referenceAfter,
				route: step.route,
				at,
				before,
				...crashes[n]!,
				remember: sequence.remember
			};
			if (record) record({ step: i, judged });
			else {
				const problem = tellCrash(sequence, { step: i, judged });
				if (problem) return problem;
			}
		}
		// The request played alone is the next request's start.
		store = alone;
	}
	return null;
}

export type RecordedCrash = { step: number; judged: Judged };
// A crash as the grader's observer sends it: the tables after the crash, or after its retry, null where they
// are exactly those before the request, or after it alone; no retry's own steps (no judge reads them); and
// what every crash of one request shares (the request alone, its answer and steps, the tables before and after
// it) sent with the request's first crash only, null in the crashes after it (a request's 7 points sent its
// reference 7 times: two thirds of a run's crash records). Go's observer sends every table: received, both
// read alike.
export type SentCrash = {
	step: number;
	judged: Omit<Judged, 'afterCrash' | 'after' | 'retry' | Shared> & {
		[part in Shared]: Judged[part] | null;
	} & {
		afterCrash: StoreContents | null;
		after: StoreContents | null;
		retry: Pick<Played, 'answer' | 'error'> & { steps?: StoreStep[] };
	};
};
type Shared = 'reference' | 'referenceAfter' | 'before';
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

// earlier: the crash sent just before this one, if any: what this one shares with it (the same request) is
// sent as null.
export function sentCrash({ step, judged }: RecordedCrash, earlier?: RecordedCrash): SentCrash {
	const known = earlier?.step === step ? earlier.judged : null;
	const unless = <T>(value: T, was: T | undefined) => (known && same(value, was) ? null : value);
	return {
		step,
		judged: {
			...judged,
			reference: unless(judged.reference, known?.reference),
			referenceAfter: unless(judged.referenceAfter, known?.referenceAfter),
			before: unless(judged.before, known?.before),
			afterCrash: same(judged.afterCrash, judged.before) ? null : judged.afterCrash,
			after: same(judged.after, judged.referenceAfter) ? null : judged.after,
			retry: { answer: judged.retry.answer, error: judged.retry.error }
		}
	};
}

// earlier: the crash received just before this one, read back already; what this one left out is its.
export function receivedCrash({ step, judged }: SentCrash, earlier?: RecordedCrash): RecordedCrash {
	const known = earlier?.step === step ? earlier.judged : null;
	const part = <T>(value: T | null, was: T | undefined): T => {
		if (value !== null) return value;
		if (was === undefined)
			throw new Error(`a crash of step ${step + 1} leaves out what no crash before it sent`);
		return was;
	};
	const before = part(judged.before, known?.before);
	const referenceAfter = part(judged.referenceAfter, known?.referenceAfter);
	return {
		step,
		judged: {
			...judged,
			reference: part(judged.reference, known?.reference),
			referenceAfter,
			before,
			afterCrash: judged.afterCrash ?? before,
			after: judged.after ?? referenceAfter,
			retry: { ...judged.retry, steps: judged.retry.steps ?? [] }
		}
	};
}

// A run's crashes, sent and received in order, each as above.
export const sentCrashes = (crashes: RecordedCrash[]): SentCrash[] =>
	crashes.map((crash, i) => sentCrash(crash, crashes[i - 1]));
export function receivedCrashes(crashes: SentCrash[]): RecordedCrash[] {
	const received: RecordedCrash[] = [];
	for (const crash of crashes) received.push(receivedCrash(crash, received.at(-1)));
	return received;
}

// The story of one crash and its retry, or null when it kept every promise.
export function tellCrash(sequence: Sequence, { step: i, judged }: RecordedCrash): string | null {
	const problem = judgeCrash(judged);
	if (!problem) return null;
	const { reference, at, route } = judged;
	const again =
		route === 'tickets' ? 'the client sent it again (same key, same body)' : 'the sender delivered it again';
	return `Crash point ${at + 1} of ${reference.steps.length} of ${saidSend(sequence.steps, i)}: the worker was stopped ${saidPoint(reference.steps, at)}, then ${again}.\n${problem}\n\nThe sequence:\n${saidSequence(sequence)}`;
}

export type Judged = {
	reference: Played;
	referenceAfter: StoreContents;
	route: Call['route'];
	at: number;
	before: StoreContents;
	afterCrash: StoreContents;
	retry: Played;
	after: StoreContents;
	remember: Sequence['remember'];
};

const said = (contents: StoreContents) =>
	`tickets ${contents.tickets.map((t) => `#${t.id}`).join(', ') || 'none'}; keys ${contents.keys.map((k) => JSON.stringify(k.key)).join(', ') || 'none'}; receipts ${contents.receipts.length}`;
const sameRows = (a: StoreContents, b: StoreContents) =>
	JSON.stringify([a.tickets, a.keys.map((k) => [k.key, k.status, k.body]), a.receipts]) ===
	JSON.stringify([b.tickets, b.keys.map((k) => [k.key, k.status, k.body]), b.receipts]);

function parsed(body: string): { kind?: unknown; ticketId?: unknown } | null {
	try {
		return JSON.parse(body) as { kind?: unknown; ticketId?: unknown };
	} catch {
		return null;
	}
}

// The retry's answer is the first answer: the same, or (a webhook made the first time) its replay.
function firstAnswerAgain(route: Call['route'], first: Answer, retry: Answer): boolean {
	if (retry.status === first.status && retry.body === first.body) return true;
	if (route !== 'webhooks' || first.status !== 201 || retry.status !== 200) return false;
	const [made, again] = [parsed(first.body), parsed(retry.body)];
	return again?.kind === 'replayed' && made?.ticketId !== undefined && again.ticketId === made.ticketId;
}

// The promises after one crash and its retry; null when every one is kept.
export function judgeCrash(judged: Judged): string | null {
	const { reference, referenceAfter, route, at, before, afterCrash, retry, after } = judged;
	const point = saidPoint(reference.steps, at);
	const committed = reference.steps.slice(0, at).some((step) => step.kind === 'commit' && step.writes);
	if (!committed && !sameRows(before, afterCrash))
		return `A crash before any commit must leave the tables as they were, but they changed.\n  before:      ${said(before)}\n  after crash: ${said(afterCrash)}`;
	const made = after.tickets.length - before.tickets.length;
	const alone = referenceAfter.tickets.length - before.tickets.length;
	if (made > alone)
		return `After a crash ${point}, the retry made ticket #${after.tickets.at(-1)!.id}: the crash and its retry made ${made} tickets where the request alone makes ${alone}.\n  the retry got:         ${saidAnswer(retry.answer)}\n  the request alone got: ${saidAnswer(reference.answer)}\n  tables after the retry: ${said(after)}`;
	if (!reference.answer) return null;
	if (!retry.answer)
		return `After a crash ${point}, the retry got no answer: your route threw ${String(retry.error)}`;
	if (!firstAnswerAgain(route, reference.answer, retry.answer))
		return `After a crash ${point}, the retry must get the first answer (made now, or replayed), but it got another.\n  the retry got:         ${saidAnswer(retry.answer)}\n  the request alone got: ${saidAnswer(reference.answer)}\n  tables after the retry: ${said(after)}`;
	if (made < alone)
		return `After a crash ${point}, the retry answered ${saidAnswer(retry.answer)} but no ticket was made: the tables hold ${said(after)}`;
	return null;
}
