// Model-based properties: random command sequences (sequences.ts draws them) played on the learner's routes
// over the in-memory store and on the model (model.ts), compared answer by answer and, after every step, in
// the tables. fast-check's fc.commands and fc.asyncModelRun; a failure is shrunk to the shortest sequence.
//
//   const problem = await checkEndpointModel(code, { runs: 30, seed: 606 });   // null, or the story to print
//
// ENDPOINT_SEED picks other sequences and ENDPOINT_RUNS sizes the sample (the learner's loop runs few, verify
// and the grader more); the story names the seed, so a failure replays with it.
import fc from 'fast-check';
import { canonical, type Store, type Transaction } from './contract.ts';
import { CrashingStore } from './crash-points.ts';
import { buildRoutes, call, saidAnswer, saidSequence, sequenceStart } from './calls.ts';
import type { Answer, Call, Clock, Pause, Routes, Sequence } from './calls.ts';
import { MemoryStore } from './memory-store.ts';
import { EndpointModel, type Expected } from './model.ts';
import type { EndpointCode } from './play.ts';
import { again, sequenceDraw, sequenceSettings, type Again as AgainDraw } from './sequences.ts';
import { NotWrittenYet } from '../core/todo.ts';

type Real = { routes: Routes; store: MemoryStore; clock: Clock; sequence: Sequence; seen: Seen };

// The store the routes see: the in-memory one, through a CrashingStore that never crashes but fails the
// ticket's insert when the request says so.
class Seen implements Store {
	current: Store;
	constructor(readonly store: MemoryStore) {
		this.current = store;
	}
	transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
		return this.current.transaction(work);
	}
}

class Broken extends Error {}

function parsed(body: string): unknown {
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return undefined;
	}
}

// What is wrong with the answer, against what the model expects; null when it is right.
function answerProblem(expected: Expected, answer: Answer): string | null {
	const wanted = `expected ${expected.status}${expected.json === undefined ? '' : ` ${JSON.stringify(expected.json)}`}${expected.replays === undefined ? '' : ` = the saved answer, byte for byte: ${expected.replays}`} (${expected.why})`;
	const got = `got ${saidAnswer(answer)}`;
	if (answer.status !== expected.status) return `${wanted}, ${got}`;
	if (expected.json !== undefined && canonical(parsed(answer.body)) !== canonical(expected.json))
		return `${wanted}, ${got}`;
	if (expected.replays !== undefined && (answer.body !== expected.replays || !answer.replayed))
		return `${wanted}, ${got}`;
	return null;
}

async function tablesProblem(model: EndpointModel, real: Real): Promise<string | null> {
	const contents = await real.store.contents();
	const tickets = (list: { id: number; subject: string }[]) =>
		list.map((t) => `#${t.id} "${t.subject}"`).join(', ');
	if (canonical(contents.tickets) !== canonical(model.tickets))
		return `the tickets are ${tickets(contents.tickets) || 'none'}, where the model has ${tickets(model.tickets) || 'none'}`;
	const alive = model.alive();
	const retention = real.sequence.retentionHours * 3_600_000;
	const kept = contents.keys.filter((k) => real.clock.time - k.createdAt.getTime() < retention);
	const said = (keys: { key: string; status: number }[]) =>
		keys
			.map((k) => `"${k.key}" (${k.status})`)
			.sort()
			.join(', ');
	if (said(kept) !== said(alive.keys))
		return `the keys still within the retention are ${said(kept) || 'none'}, where the model keeps ${said(alive.keys) || 'none'}`;
	const receipts = (list: { eventId: string; subject: string; ticketId: number }[]) =>
		list
			.map((r) => `${r.eventId} → #${r.ticketId} "${r.subject}"`)
			.sort()
			.join(', ');
	const missing = alive.receipts.filter(
		(r) =>
			!contents.receipts.some(
				(c) => c.eventId === r.eventId && c.ticketId === r.ticketId && c.subject === r.subject
			)
	);
	if (missing.length)
		return `the receipts are ${receipts(contents.receipts) || 'none'}, where the model keeps ${receipts(alive.receipts)}`;
	return null;
}

class Send implements fc.AsyncCommand<EndpointModel, Real> {
	constructor(readonly step: Call) {}
	check = () => true;
	async run(model: EndpointModel, real: Real): Promise<void> {
		real.sequence.steps.push(this.step);
		const expected = model.send(this.step);
		real.seen.current = new CrashingStore(real.store, null, this.step.stepFails ?? false);
		const answer = await call(real.routes, this.step);
		const wrong = answerProblem(expected, answer);
		if (wrong) throw new Broken(`request ${requests(real.sequence)}: ${wrong}`);
		model.adopt(answer);
		const tables = await tablesProblem(model, real);
		if (tables) throw new Broken(`after request ${requests(real.sequence)}, ${tables}`);
	}
	toString = () => JSON.stringify(this.step);
}

class Wait implements fc.AsyncCommand<EndpointModel, Real> {
	constructor(readonly step: Pause) {}
	check = () => true;
	async run(model: EndpointModel, real: Real): Promise<void> {
		real.sequence.steps.push(this.step);
		model.wait(this.step.minutes);
		real.clock.time += this.step.minutes * 60_000;
	}
	toString = () => JSON.stringify(this.step);
}

// A retry of the request before it, the same body or another, now, as its retention ends, or twice
// (sequences.ts).
class Again implements fc.AsyncCommand<EndpointModel, Real> {
	constructor(readonly draw: AgainDraw) {}
	check = () => true;
	async run(model: EndpointModel, real: Real): Promise<void> {
		for (const step of again(real.sequence.steps, real.sequence, this.draw))
			await (step.do === 'send' ? new Send(step) : new Wait(step)).run(model, real);
	}
	toString = () =>
		`again ${this.draw.at}${this.draw.change === null ? '' : `, another body (${this.draw.change})`}`;
}

const requests = (sequence: Sequence) => sequence.steps.filter((step) => step.do === 'send').length;

const cases = sequenceSettings.chain((settings) =>
	fc.tuple(
		fc.constant(settings),
		fc.commands(
			[
				sequenceDraw(settings.retentionHours).map((draw): fc.AsyncCommand<EndpointModel, Real> => {
					if (draw.do === 'again') return new Again(draw);
					return draw.do === 'send' ? new Send(draw) : new Wait(draw);
				})
			],
			{ maxCommands: 10 }
		)
	)
);

export async function checkEndpointModel(
	code: EndpointCode,
	{ runs, seed }: { runs: number; seed: number }
): Promise<string | null> {
	// The sequence of the last failing run: with shrinking over, the shortest.
	let last: Sequence | null = null;
	const property = fc.asyncProperty(cases, async ([settings, commands]) => {
		const sequence: Sequence = { ...settings, steps: [] };
		const setup = () => {
			const store = new MemoryStore();
			const clock = { time: sequenceStart };
			const seen = new Seen(store);
			const routes = buildRoutes(code, sequence, seen, clock);
			return { model: new EndpointModel(settings), real: { routes, store, clock, sequence, seen } };
		};
		await fc.asyncModelRun(setup, commands).catch((error: unknown) => {
			last = sequence;
			throw error;
		});
	});
	const details = await fc.check(property, { numRuns: runs, seed });
	if (!details.failed) return null;
	const error = details.errorInstance;
	if (error instanceof NotWrittenYet) throw error;
	const why = error instanceof Broken ? error.message : `your route threw: ${String(error)}`;
	return [
		`The endpoint does not do what the model of its contract does. The shortest sequence found (seed ${details.seed}, after ${details.numRuns} run${details.numRuns === 1 ? '' : 's'}, shrunk ${details.numShrinks} times):`,
		saidSequence(last!),
		why,
		`Replay it: ENDPOINT_SEED=${details.seed} npm test exercises/06`
	].join('\n');
}

// A sequence played on the in-memory store, one request at a time: every answer, and the rows at the end.
// The grader plays it on a submission and on the reference, and compares the two (grader/checks/06-*).
export async function playInMemory(code: EndpointCode, sequence: Sequence) {
	const store = new MemoryStore();
	const seen = new Seen(store);
	const clock = { time: sequenceStart };
	const routes = buildRoutes(code, sequence, seen, clock);
	const answers: Answer[] = [];
	for (const step of sequence.steps) {
		if (step.do === 'wait') clock.time += step.minutes * 60_000;
		else {
			seen.current = new CrashingStore(store, null, step.stepFails ?? false);
			answers.push(await call(routes, step));
		}
	}
	return { answers, end: await store.contents() };
}
