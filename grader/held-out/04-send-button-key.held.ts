// Exercise 04's held-out checks: journeys made up from the grader's seed (sends, lost answers, held requests,
// reloads), played by the reference's key store first; what it did becomes the journey's expectation, and
// the learner's key store is judged against it step by step, with the journeys' own report.
import fc from 'fast-check';
import { describe } from 'vitest';
import type { ClientJourney } from '#shared/client-journeys.ts';
import { journeyOf, moves } from '#shared/explore-client.ts';
import { judgeJourney } from '#shared/judge-client.ts';
import { heading } from '#shared/manifest.ts';
import { playJourney, type Played } from '#shared/play-client.ts';
import type { FormState } from '#shared/send-button.ts';
import * as learner from '../../exercises/04-send-button-key/submission.ts';
import * as reference from '../../solutions/04-send-button-key/submission.ts';
import { heldOutChecks } from './seed.ts';

// The made-up journey with every step's expectation filled in from what the reference did.
function expectedFrom(journey: ClientJourney, played: Played): ClientJourney {
	const steps = journey.steps.map((step, i) => {
		const shows = played.steps[i]!.shows as Record<string, FormState>;
		const sent = played.steps[i]!.request;
		// The form refuses an edit while it is unsure; what the reference's form refused is expected refused.
		if (played.steps[i]!.locked) return { ...step, locked: true as const, shows };
		if (step.do !== 'send' || !sent) return { ...step, shows };
		const reply = played.requests[sent.number - 1]!.reply;
		const request = {
			key: String(sent.key),
			body: sent.body as { subject: string },
			reply: reply && { status: reply.status, ticketId: reply.ticketId, replayed: reply.replayed }
		};
		return { ...step, request, shows };
	});
	const story = 'A journey made up by the grader; expected is what the reference solution did.';
	return { ...journey, name: 'held-out', title: 'a held-out journey', story, steps, tickets: played.tickets };
}

describe(heading('04'), () => {
	heldOutChecks('journeys', fc.array(moves, { minLength: 1, maxLength: 14 }), (list) => {
		const journey = journeyOf(list);
		const played = playJourney(journey, reference);
		if (played.threw)
			throw new Error(`the reference solution threw on a made-up journey: ${played.threw.error}`);
		const expected = expectedFrom(journey, played);
		return judgeJourney(expected, playJourney(expected, learner));
	});
});
