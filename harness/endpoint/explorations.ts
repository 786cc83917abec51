// The explorations 06's test file calls, on the in-memory store (no PostgreSQL): every crash point of every
// schedule's requests and of random sequences, every overlap of two requests with one key or one event, and
// the model-based property. A fixed seed and few runs for the learner's loop; explorations.test.ts and the
// grader run more of the same generators.
//
//   exploreEndpoint({ tickets, webhooks });                  // the learner's loop: the default sizes
//   exploreEndpoint(code, { crashSequences: 60, modelRuns: 300 });
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { exploreCrashPoints } from './crash-points.ts';
import { MemoryStore } from './memory-store.ts';
import { buildRoutes, call, sequenceStart, type Sequence } from './calls.ts';
import { exploreOverlaps, overlaps } from './overlaps.ts';
import type { EndpointCode } from './play.ts';
import { checkEndpointModel, defaultSeed } from './properties.ts';
import { randomSequences, scheduleSequences } from './sequences.ts';

export type Sizes = { crashSequences: number; modelRuns: number; seed: number };
const fromEnvironment = (name: string, fallback: number) =>
	process.env[name] ? Number(process.env[name]) : fallback;
export const loopSizes = (): Sizes => ({
	crashSequences: fromEnvironment('ENDPOINT_CRASH_RUNS', 4),
	modelRuns: fromEnvironment('ENDPOINT_RUNS', 25),
	seed: fromEnvironment('ENDPOINT_SEED', defaultSeed)
});

// Only a bound on a hang: in memory, each takes well under a second.
const limit = { timeout: 60_000 };
const inMemory = async (store: unknown) => (store as MemoryStore).copy();

// The first broken promise over the schedules' sequences, then the random ones; null when all are kept.
export async function crashProblem(code: EndpointCode, sizes: Sizes): Promise<string | null> {
	for (const { name, sequence } of scheduleSequences()) {
		const problem = await exploreCrashPoints(code, sequence, new MemoryStore(), inMemory);
		if (problem) return `${name}, played with a crash at every step:\n${problem}`;
	}
	const random = fc.sample(randomSequences, { seed: sizes.seed, numRuns: sizes.crashSequences });
	for (const [i, sequence] of random.entries()) {
		const problem = await exploreCrashPoints(code, sequence, new MemoryStore(), inMemory);
		if (problem)
			return `Random sequence ${i + 1} of seed ${sizes.seed} (ENDPOINT_SEED=${sizes.seed}), played with a crash at every step:\n${problem}`;
	}
	return null;
}

export async function overlapProblem(code: EndpointCode): Promise<string | null> {
	for (const overlap of overlaps()) {
		const problem = await exploreOverlaps(code, overlap);
		if (problem) return problem;
	}
	return null;
}

// One request to each route first: a stub stops there, before any sequence is drawn or schedule loaded.
async function stubFirst(code: EndpointCode): Promise<void> {
	const sequence: Sequence = { remember: 'everything', retentionHours: 24, steps: [] };
	const routes = buildRoutes(code, sequence, new MemoryStore(), { time: sequenceStart });
	const event = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-1', subject: 'Printer on fire' };
	await call(routes, { do: 'send', route: 'tickets', key: 'k-1', json: { subject: 'Printer on fire' } });
	await call(routes, { do: 'send', route: 'webhooks', json: event });
}

// A stub stops the exploration with its own message: the function to write.
async function judged(code: EndpointCode, problem: () => Promise<string | null>): Promise<void> {
	let found: string | null;
	try {
		await stubFirst(code);
		found = await problem();
	} catch (error) {
		if (error instanceof NotWrittenYet) throw new ScheduleMismatch(error.message);
		throw error;
	}
	if (found) throw new ScheduleMismatch(found);
}

export function exploreEndpoint(code: EndpointCode, sizes: Sizes = loopSizes()): void {
	describe('every crash point, every overlap, and a model of the contract (in memory)', () => {
		it('A crash at any step of a request, then its retry: one ticket, the first answer', limit, () =>
			judged(code, () => crashProblem(code, sizes))
		);
		it('Two requests with one key (or one event) at once, at every interleaving', limit, () =>
			judged(code, () => overlapProblem(code))
		);
		it('Random sequences against a model of the contract', limit, () =>
			judged(code, () => checkEndpointModel(code, { runs: sizes.modelRuns, seed: sizes.seed }))
		);
	});
}
