// Beyond the written journeys: fast-check makes up journeys of sends, lost replies, held requests and
// reloads, and checks what must hold whatever the network does: one ticket per request the user means.
import fc from 'fast-check';
import { it } from 'vitest';
import type { ClientJourney, Fate, Step } from './journeys.ts';
import { saidBody, saidReply, saidStep } from './words.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { playJourney, type KeyStoreCode, type Played } from './play.ts';
import { canonical } from '../core/canonical.ts';
import { isDefiniteAnswer } from '../endpoint/contract.ts';
import { NotWrittenYet } from '../core/todo.ts';

type Move =
	| { do: 'write' }
	| { do: 'send'; fate: Fate }
	| { do: 'release'; fate: 'answered' | 'answer-lost' | 'server-fails' }
	| { do: 'reload' };

// Exported for the grader's held-out journeys.
export const moves: fc.Arbitrary<Move> = fc.oneof(
	{ arbitrary: fc.constant({ do: 'write' as const }), weight: 2 },
	{
		arbitrary: fc.record({
			do: fc.constant('send' as const),
			fate: fc.constantFrom<Fate>('answered', 'answer-lost', 'request-lost', 'held', 'server-fails')
		}),
		weight: 5
	},
	{
		arbitrary: fc.record({
			do: fc.constant('release' as const),
			fate: fc.constantFrom('answered' as const, 'answer-lost' as const, 'server-fails' as const)
		}),
		weight: 2
	},
	{ arbitrary: fc.constant({ do: 'reload' as const }), weight: 1 }
);

// Turns moves into journey steps: every write is a new problem, and a release finishes the oldest held request.
export function journeyOf(list: Move[]): ClientJourney {
	const steps: Step[] = [{ do: 'type', form: 'support', subject: 'Problem 1', shows: {} }];
	let problems = 1;
	let sent = 0;
	const held: number[] = [];
	for (const move of list) {
		if (move.do === 'write')
			steps.push({ do: 'edit', form: 'support', subject: `Problem ${++problems}`, shows: {} });
		if (move.do === 'reload') steps.push({ do: 'reload', shows: {} });
		if (move.do === 'send') {
			sent += 1;
			if (move.fate === 'held') held.push(sent);
			const request = { key: '', body: { subject: '' }, reply: null };
			steps.push({ do: 'send', form: 'support', fate: move.fate, request, shows: {} });
		}
		if (move.do === 'release' && held.length)
			steps.push({ do: 'release', number: held.shift()!, fate: move.fate, shows: {} });
	}
	for (const number of held) steps.push({ do: 'release', number, fate: 'answered', shows: {} });
	const story = 'Made up by fast-check.';
	return {
		name: 'made-up',
		title: 'made up',
		story,
		client: 'key-store',
		forms: ['support'],
		steps,
		tickets: []
	};
}

// What must hold after any journey, or null when it does.
export function brokenPromise(played: Played): string | null {
	if (played.threw) {
		const error = played.threw.error;
		return `your code threw: ${error instanceof Error ? error.message : String(error)}`;
	}
	// A new key is fine only once the form has heard a definite answer for the last one.
	const definite = ({ kind, status }: { kind: string; status?: number }) =>
		kind === 'reply' && isDefiniteAnswer(status!);
	let last: unknown = undefined;
	let settled = true;
	for (const event of played.events) {
		if ('heard' in event) {
			if (played.requests[event.heard - 1]!.key === last && definite(event.answer)) settled = true;
			continue;
		}
		const { key } = played.requests[event.sent - 1]!;
		if (key !== last && !settled) {
			const made = played.tickets.length
				? ` (${played.tickets.length} ticket${played.tickets.length === 1 ? '' : 's'} now)`
				: '';
			return `request ${event.sent} carried a new key, ${JSON.stringify(key)}, though the form never heard a definite answer for ${JSON.stringify(last)}: the ticket may already exist${made}. Until a 2xx or a 4xx other than 409 comes back, every Send retries the same key.`;
		}
		if (key !== last) settled = false;
		last = key;
	}
	const bodies = new Map<unknown, string>();
	for (const request of played.requests) {
		const body = canonical(request.body);
		const first = bodies.get(request.key);
		if (first !== undefined && first !== body)
			return `key ${JSON.stringify(request.key)} carried ${saidBody(JSON.parse(first))} and then ${saidBody(request.body)}: a key belongs to one body.`;
		bodies.set(request.key, body);
	}
	return null;
}

function retold(journey: ClientJourney, played: Played): string {
	let request = 0;
	return journey.steps
		.map((step, i) => {
			let line = `  step ${i + 1}: ${saidStep(step)}`;
			if (step.do === 'send') {
				const sent = played.requests[request++];
				if (sent) line += `  →  ${JSON.stringify(sent.key)} ${saidBody(sent.body)} ${saidReply(sent.reply)}`;
			}
			return line;
		})
		.join('\n');
}

// The shortest made-up journey that breaks a promise, told step by step; null when none of them does.
// The same journeys every run (a fixed seed), so a learner sees the same one until it is fixed.
export function brokenJourney(code: KeyStoreCode, runs = 300): string | null {
	// A stub is said as a stub: one journey played first shows it, before fast-check looks for the shortest.
	const [first] = fc.sample(fc.array(moves, { maxLength: 14 }), { seed: 404, numRuns: 1 });
	const threw = playJourney(journeyOf(first!), code).threw?.error;
	if (threw instanceof NotWrittenYet) return threw.message;
	const property = fc.property(fc.array(moves, { maxLength: 14 }), (list) => {
		return brokenPromise(playJourney(journeyOf(list), code)) === null;
	});
	const details = fc.check(property, { numRuns: runs, seed: 404 });
	if (!details.failed || !details.counterexample) return null;
	const journey = journeyOf(details.counterexample[0]);
	const played = playJourney(journey, code);
	return `A made-up journey (the shortest fast-check found) breaks a promise: ${brokenPromise(played)}\n\n${retold(journey, played)}`;
}

export function exploreKeyStore(code: KeyStoreCode, runs = 300): void {
	it(`made-up journeys (${runs}, fast-check): a new key only after a definite answer, and a key never changes its body`, () => {
		const problem = brokenJourney(code, runs);
		if (problem) throw new ScheduleMismatch(problem);
	});
}
