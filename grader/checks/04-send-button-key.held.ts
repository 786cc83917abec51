// Exercise 04's checks: the shipped journeys with the learner's key store, and journeys made up from the
// grader's seed (sends, lost answers, held requests, reloads) played by the reference key store first; what it
// did becomes the journey's expectation, and the learner's is judged against it step by step. afterAnswer is
// handed every answer the tests hand it (their table, harness/client/answers.ts), and answers drawn from the seed.
import fc from 'fast-check';
import { clientJourneys, type ClientJourney } from '#harness/client/journeys.ts';
import { journeyOf, moves } from '#harness/client/explore.ts';
import { judgeJourney } from '#harness/client/judge.ts';
import { answerCases, answers } from '#harness/client/answers.ts';
import type { Played } from '#harness/client/play.ts';
import type { FormState } from '#harness/client/model.ts';
import type { SaidError } from '../channel/observations.ts';
import type { StorageCase } from '../inside/04-send-button-key.observe.ts';
import { canonical, heldOut, revivedError, said, type Check, type Probe } from '../trusted/probe.ts';

type Seen = Omit<Played, 'threw'> & { threw: { step: number; error: SaidError } | null };

// The error the sandbox reported, as the judge expects it.
function revived(seen: Seen): Played {
	if (!seen.threw) return seen as Played;
	return { ...seen, threw: { step: seen.threw.step, error: revivedError(seen.threw.error) } };
}

// The made-up journey with every step's expectation filled in from what the reference did.
function expectedFrom(journey: ClientJourney, played: Seen): ClientJourney {
	if (played.threw)
		throw new Error(`the reference solution threw on a made-up journey: ${played.threw.error.message}`);
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

// The key store's own contract, call by call, against the reference's answers: the focused tests' cases.
const a = { subject: 'Cannot sign in' };
const b = { subject: 'Cannot sign in on the train' };
const storageCases: [string, StorageCase][] = [
	[
		'begin() again continues it: the original key and body',
		{
			stored: null,
			steps: [
				{ do: 'begin', body: a },
				{ do: 'begin', body: b }
			]
		}
	],
	[
		'begin() straight after a reload, with no pending() first, continues the stored submission',
		{ stored: null, steps: [{ do: 'begin', body: a }, { do: 'reload' }, { do: 'begin', body: b }] }
	],
	[
		'removeItem and setItem start throwing: no finished submission ever comes back',
		{
			stored: null,
			steps: [
				{ do: 'begin', body: a },
				{ do: 'fail', methods: ['setItem', 'removeItem'] },
				{ do: 'finish' },
				{ do: 'begin', body: b },
				{ do: 'finish' },
				{ do: 'pending' },
				{ do: 'begin', body: a }
			]
		}
	],
	[
		'removeItem throws, and finish() is called twice: the finished submission still never comes back',
		{
			stored: null,
			steps: [
				{ do: 'begin', body: a },
				{ do: 'fail', methods: ['removeItem'] },
				{ do: 'finish' },
				{ do: 'finish' },
				{ do: 'pending' },
				{ do: 'reload' },
				{ do: 'pending' },
				{ do: 'begin', body: b }
			]
		}
	],
	[
		'a body whose field is not text is a damaged entry',
		{
			stored: JSON.stringify({ key: 'key-0', body: { subject: 7 } }),
			steps: [{ do: 'pending' }, { do: 'begin', body: a }]
		}
	]
];
const storageChecks: Check[] = storageCases.map(([what, input]) => ({
	name: `submissions › ${what}`,
	heldOut: false,
	observer: 'storage',
	cases: [input],
	judge: (c: StorageCase, got: unknown, wanted: unknown) =>
		canonical(got) === canonical(wanted)
			? null
			: `${what}: with ${said(c.stored)} stored, the calls ${said(c.steps)} answered\n  ${said(got)}\nexpected\n  ${said(wanted)}`
}));

// What afterAnswer did with one answer, against what it should have: the form's state and the finish() calls.
type AnswerSeen = { shows?: unknown; finished: number; threw?: SaidError };
function judgeAnswer(answer: unknown, got: AnswerSeen, wanted: AnswerSeen): string | null {
	if (canonical(got) === canonical(wanted)) return null;
	const told = (seen: AnswerSeen) =>
		`${seen.threw ? `threw ${seen.threw.name}: ${seen.threw.message}` : `returned ${said(seen.shows)}`}, and called finish() ${seen.finished} time${seen.finished === 1 ? '' : 's'}`;
	const open =
		wanted.finished === 0 ? 'the outcome is open: the key and body stay' : 'a definite answer finishes once';
	return `afterAnswer(submission, ${said(answer)}) ${told(got)}
expected: it ${told(wanted)} (${open})`;
}
const answerCheck: Check = {
	name: 'afterAnswer › every answer the tests try',
	heldOut: false,
	observer: 'answer',
	cases: answerCases.map((c) => c.answer),
	judge: judgeAnswer
};

export const probe: Probe = (settings) => [
	...storageChecks,
	answerCheck,
	...heldOut(settings, 'answers', answers, () => ({ observer: 'answer', judge: judgeAnswer })),
	...clientJourneys()
		.filter((journey) => journey.client === 'key-store')
		.map((journey) => ({
			name: `the journeys, with your key store › ${journey.title}`,
			heldOut: false,
			observer: 'journey',
			cases: [journey],
			judge: (input: ClientJourney, seen: Seen) => judgeJourney(input, revived(seen))
		})),
	...heldOut(settings, 'journeys', fc.array(moves, { minLength: 1, maxLength: 14 }).map(journeyOf), () => ({
		observer: 'journey',
		judge: (input: ClientJourney, seen: Seen, expected: Seen) =>
			judgeJourney(expectedFrom(input, expected), revived(seen))
	}))
];
