// The endpoint's in-memory store held to PostgreSQL's: every schedule's sequence and a seeded sample of random
// ones, played by 06's solution on both, must get the same answers and leave the same rows. Then a sample of
// crash points on PostgreSQL itself: the first request of some sequences, crashed at every step and retried.
// ENDPOINT_DIFF_RUNS sizes the random sample; the seed is fixed, so a difference shows again the same way.
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { buildRoutes, call, saidSequence, sequenceStart, type Sequence } from '../endpoint/calls.ts';
import type { Store, Transaction } from '../endpoint/contract.ts';
import { CrashingStore, exploreCrashPoints, type ExploredStore } from '../endpoint/crash-points.ts';
import { MemoryStore } from '../endpoint/memory-store.ts';
import { emptyStore, type StoreContents } from '../endpoint/postgres-store.ts';
import { randomSequences, scheduleSequences } from '../endpoint/sequences.ts';

const runs = Number(process.env.ENDPOINT_DIFF_RUNS ?? 20);
const url = () => inject('postgresUrl');
const limit = { timeout: 120_000 };
afterAll(async () => (await emptyStore(url())).close());

// The routes on a store that fails a ticket's insert when the request says so.
class Failing implements Store {
	current: Store;
	constructor(readonly inner: ExploredStore) {
		this.current = inner;
	}
	transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
		return this.current.transaction(work);
	}
}

async function played(sequence: Sequence, store: ExploredStore): Promise<string[]> {
	const clock = { time: sequenceStart };
	const failing = new Failing(store);
	const routes = buildRoutes(solution, sequence, failing, clock);
	const told: string[] = [];
	for (const step of sequence.steps) {
		if (step.do === 'wait') {
			clock.time += step.minutes * 60_000;
			continue;
		}
		failing.current = new CrashingStore(store, null, step.stepFails ?? false);
		const answer = await call(routes, step);
		told.push(`${answer.status} ${answer.body}${answer.replayed ? ' (replayed)' : ''}`);
	}
	const rows = (contents: StoreContents) => [
		...contents.tickets.map((t) => `ticket #${t.id} ${t.tenant}: ${t.subject}`),
		...contents.keys.map((k) => `key ${k.key} ${k.status} ${k.body} ${k.createdAt.toISOString()}`),
		...contents.receipts.map((r) => `receipt ${r.eventId} #${r.ticketId} ${r.subject}`)
	];
	return [...told, ...rows(await store.contents())];
}

const sample = () => [
	...scheduleSequences(),
	...fc.sample(randomSequences, { seed: 6, numRuns: runs }).map((sequence, i) => ({
		name: `random sequence ${i + 1} of seed 6`,
		sequence
	}))
];

describe("06's in-memory store against PostgreSQL", () => {
	it('every schedule and a random sample: the same answers and the same rows', limit, async () => {
		for (const { name, sequence } of sample()) {
			const model = await played(sequence, new MemoryStore());
			const server = await played(sequence, await emptyStore(url()));
			expect(model, `${name}\n${saidSequence(sequence)}`).toEqual(server);
		}
	});

	it('crash points on PostgreSQL: a sample of first requests, crashed at every step', limit, async () => {
		const firsts = scheduleSequences()
			.filter((_, i) => i % 4 === 0)
			.map(({ name, sequence }) => ({ name, sequence: { ...sequence, steps: sequence.steps.slice(0, 1) } }));
		for (const { name, sequence } of firsts) {
			const store = await emptyStore(url());
			const problem = await exploreCrashPoints(solution, sequence, store, () => emptyStore(url()));
			expect(problem, name).toBeNull();
		}
	});
});
