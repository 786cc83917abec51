// Judges a played journey step by step, and says in the lesson's words where the code went another way.
import { describe, it } from 'vitest';
import { clientJourneys, type ClientJourney, type ExpectedReply, type ExpectedRequest } from './journeys.ts';
import { describeStep, saidBody, saidReply, saidRequest, saidState } from './words.ts';
import { ScheduleMismatch } from '../handler/play.ts';
import { plays } from '../core/plays.ts';
import { playJourney, type KeyStoreCode, type Played, type SentRequest } from './play.ts';
import { sideBySide } from '../core/report.ts';
import type { Reply } from './fake-endpoint.ts';
import { canonical } from '../endpoint/contract.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { saidTicket } from '../core/words.ts';

const sameReply = (expected: ExpectedReply | null, actual: Reply | null): boolean =>
	expected === null || actual === null
		? expected === actual
		: expected.status === actual.status &&
			expected.ticketId === actual.ticketId &&
			expected.replayed === actual.replayed;

const sends = (journey: ClientJourney) => journey.steps.filter((step) => step.do === 'send');

// The send step that made request `number`, and what it expected.
function expectedRequest(journey: ClientJourney, number: number): ExpectedRequest {
	return sends(journey)[number - 1]!.request!;
}

// Why a key or body is wrong, when the journey makes it plain.
function keyHint(journey: ClientJourney, number: number, actual: unknown, played: Played): string {
	const earlier = sends(journey).slice(0, number - 1);
	const expected = expectedRequest(journey, number).key;
	if (typeof actual !== 'string') return ' The key must be a string: what newKey() returned.';
	if (!/^key-\d+$/.test(actual))
		return ' Keys come from newKey(): the journeys pass one that counts key-1, key-2, …';
	if (earlier.some((step) => step.request!.key === expected))
		return " This Send retries a submission whose outcome is unknown, so it must carry that submission's key.";
	if (played.requests.slice(0, number - 1).some((request) => request.key === actual))
		return ' This is a new request the user means to send, so it needs a new key (finish() after a definite answer).';
	return '';
}

function requestProblems(
	journey: ClientJourney,
	number: number,
	played: Played,
	withReply: boolean
): string[] {
	const expected = expectedRequest(journey, number);
	const actual = played.requests[number - 1]!;
	const problems: string[] = [];
	if (actual.key !== expected.key)
		problems.push(
			`request ${number} carried ${JSON.stringify(actual.key)}; expected "${expected.key}".${keyHint(journey, number, actual.key, played)}`
		);
	if (canonical(actual.body) !== canonical(expected.body)) {
		const retry = sends(journey)
			.slice(0, number - 1)
			.some((step) => step.request!.key === expected.key);
		const why = retry
			? 'A retry sends the body it first sent, even if the fields were edited since.'
			: 'A new request sends what the fields say now.';
		problems.push(
			`request ${number} sent ${saidBody(actual.body)}; expected ${saidBody(expected.body)}. ${why}`
		);
	}
	if (withReply && !sameReply(expected.reply, actual.reply)) {
		const refused = actual.reply && actual.reply.status >= 400;
		const reason = refused ? ` (the endpoint said: ${actual.reply!.reason})` : '';
		problems.push(
			`the endpoint replied ${saidReply(actual.reply)}${reason} to request ${number}; expected ${saidReply(expected.reply)}.`
		);
	}
	return problems;
}

function stepProblems(journey: ClientJourney, index: number, played: Played): string[] {
	const step = journey.steps[index]!;
	const actual = played.steps[index]!;
	const problems: string[] = [];
	if (step.do === 'send')
		problems.push(...requestProblems(journey, actual.request!.number, played, step.fate !== 'held'));
	if (step.do === 'release') problems.push(...requestProblems(journey, step.number!, played, true));
	if ((step.do === 'type' || step.do === 'edit') && actual.locked !== (step.locked === true))
		problems.push(
			actual.locked
				? `the form refused this ${step.do}: its fields were still locked (it showed sending or unsure); expected it to take it, as a form does once it has a definite answer.`
				: `the form took this ${step.do}; expected it refused: the fields stay locked while the outcome is unknown (sending or unsure), so Try again sends what was sent.`
		);
	for (const form of journey.forms) {
		const wanted = saidState(step.shows[form]);
		const shown = saidState(actual.shows[form]);
		if (wanted !== shown) problems.push(`${form} shows "${shown}"; expected "${wanted}".`);
	}
	return problems;
}

// The journey so far, expected beside actual, one row per step, and the tickets.
function transcript(journey: ClientJourney, played: Played, upTo: number): string {
	const said = (
		request: { key: unknown; body: unknown; reply: Reply | ExpectedReply | null },
		held: boolean
	) => `${saidRequest(request.key, request.body)} → ${held ? 'held' : saidReply(request.reply)}`;
	const rows = journey.steps.slice(0, upTo + 1).map((step, i) => {
		const actual = played.steps[i];
		const expected: string[] = [];
		const got: string[] = [];
		if (step.do === 'send') {
			expected.push(said(step.request!, step.fate === 'held'));
			if (actual?.request) got.push(said(actual.request, step.fate === 'held'));
		}
		if (step.do === 'release') {
			expected.push(`request ${step.number} → ${saidReply(expectedRequest(journey, step.number!).reply)}`);
			const request: SentRequest | undefined = played.requests[step.number! - 1];
			if (actual && request) got.push(`request ${step.number} → ${saidReply(request.reply)}`);
		}
		for (const form of journey.forms) {
			expected.push(`${form}: ${saidState(step.shows[form])}`);
			if (actual) got.push(`${form}: ${saidState(actual.shows[form])}`);
		}
		return { label: `step ${i + 1} ${step.do}`, expected, actual: actual ? got : ['(not reached)'] };
	});
	rows.push({
		label: 'tickets (end)',
		expected: journey.tickets.map(saidTicket),
		actual: played.tickets.map(saidTicket)
	});
	return sideBySide(rows);
}

function headingOf(journey: ClientJourney): string {
	return `Journey "${journey.name}" (${journey.title}): ${journey.story}`;
}

// null when the code did what the journey expects; otherwise the message a learner reads.
export function judgeJourney(journey: ClientJourney, played: Played): string | null {
	for (let i = 0; i < journey.steps.length; i++) {
		if (played.threw && played.threw.step <= i) {
			const { error, step } = played.threw;
			const where = step < 0 ? 'as the page opened, before step 1' : describeStep(journey, step);
			if (error instanceof NotWrittenYet)
				return `${error.message}\n  (stopped ${where} of journey "${journey.name}")`;
			const why = error instanceof Error ? error.message : String(error);
			return `${headingOf(journey)}\n${where}: your code threw: ${why}\n\n${transcript(journey, played, Math.max(step, 0))}`;
		}
		const problems = stepProblems(journey, i, played);
		if (problems.length) {
			const list = problems.map((problem) => `  - ${problem}`).join('\n');
			return `${headingOf(journey)}\n${describeStep(journey, i)}:\n${list}\n\n${transcript(journey, played, i)}`;
		}
	}
	const expected = journey.tickets.map(saidTicket);
	const actual = played.tickets.map(saidTicket);
	if (expected.join('\n') === actual.join('\n')) return null;
	return `${headingOf(journey)}\nEvery step went as expected, but the tickets differ at the end:\n\n${transcript(journey, played, journey.steps.length - 1)}`;
}

// One test per journey: the learner's key store plays its own, and the given anti-pattern is pinned beside it.
export function playClientJourneys(code: KeyStoreCode): void {
	const journeys = clientJourneys();
	const run = (journey: ClientJourney) => () => {
		const problem = judgeJourney(journey, playJourney(journey, code));
		if (problem) throw new ScheduleMismatch(problem);
	};
	describe('the journeys, with your key store', () => {
		for (const journey of journeys.filter((j) => j.client === 'key-store'))
			it(journey.title, plays(journey), run(journey));
	});
	describe('the anti-pattern, pinned: a given client that makes a new key per attempt', () => {
		for (const journey of journeys.filter((j) => j.client === 'new-key-per-attempt'))
			it(journey.title, plays(journey), run(journey));
	});
}
