// The explorations 06's test file calls, on the in-memory store (no PostgreSQL): every crash point of every
// schedule's requests and of random sequences, every overlap of two requests with one key or one event, and
// the model-based property. A fixed seed and few runs for the learner's loop; explorations.test.ts and the
// grader run more of the same generators.
//
//   exploreEndpoint({ tickets, webhooks });                  // the learner's loop: the default sizes
//   exploreEndpoint(code, { crashSequences: 60, modelRuns: 300 });
import { describe, it } from 'vitest';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { MemoryStore } from './memory-store.ts';
import { buildRoutes, call, sequenceStart, type Sequence } from './calls.ts';
import type { EndpointCode } from './play.ts';
import { hour } from './contract.ts';
import { stubAtFirstRequest } from './stub-check.ts';

// The explorers, and fast-check with them, load when the first exploration gets past the stub check.
const explorers = () => import('./explorers.ts');

// The seed the loop plays, and verify's explorations play the next (explorations.test.ts).
export const defaultSeed = 606;
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

// One request to each route first: a stub stops there, before any sequence is drawn or schedule loaded. A
// tickets route that is still the stub is told by the players' stub check (stub-check.ts), which hands it no
// Fetch Request: the first Request a run makes loads Node's fetch, a cost the shipped stub need not pay.
async function stubFirst(code: EndpointCode): Promise<void> {
	const sequence: Sequence = { remember: 'everything', retentionHours: 24, steps: [] };
	const store = new MemoryStore();
	const routes = buildRoutes(code, sequence, store, { time: sequenceStart });
	const now = () => new Date(sequenceStart);
	const options = { store, remember: sequence.remember, retention: 24 * hour, now, tenant: 'acme' };
	const stub = await stubAtFirstRequest(code.tickets, options, 'none');
	if (stub) throw stub;
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
			judged(code, async () => (await explorers()).crashProblem(code, sizes))
		);
		it('Two requests with one key (or one event) at once, at every interleaving', limit, () =>
			judged(code, async () => (await explorers()).overlapProblem(code))
		);
		it('Random sequences against a model of the contract', limit, () =>
			judged(code, async () =>
				(await explorers()).checkEndpointModel(code, { runs: sizes.modelRuns, seed: sizes.seed })
			)
		);
	});
}
