// What an answer means, as a table: each answer the tests hand to afterAnswer, what the form must show, and
// whether it is definite (finish() once) or leaves the outcome open (the key and body stay, finish() never).
//
//   for (const { what, answer, shows, definite } of answerCases) …
//
// Exercise 04's tests play every row, and the grader's checks for 04 play the same rows and draw their
// held-out answers from `answers`, so the two never try different statuses.
import fc from 'fast-check';
import type { Answer, FormState } from './model.ts';

export type AnswerCase = { what: string; answer: Answer; shows: FormState; definite: boolean };

const reply = (status: number, ticketId: number | null = null): Answer => ({
	kind: 'reply',
	status,
	ticketId
});
const row = (what: string, answer: Answer, shows: FormState, definite: boolean): AnswerCase => ({
	what,
	answer,
	shows,
	definite
});

export const answerCases: AnswerCase[] = [
	row('201 with ticket 7', reply(201, 7), { kind: 'created', ticketId: 7 }, true),
	row('200 with ticket 7 (a replay)', reply(200, 7), { kind: 'created', ticketId: 7 }, true),
	row('400 (the subject is missing)', reply(400), { kind: 'refused', status: 400 }, true),
	row('404', reply(404), { kind: 'refused', status: 404 }, true),
	row('299, still a 2xx', reply(299, 7), { kind: 'created', ticketId: 7 }, true),
	row('499, still a 4xx', reply(499), { kind: 'refused', status: 499 }, true),
	row('422 (the key was used with another body)', reply(422), { kind: 'refused', status: 422 }, true),
	row('409 (still in progress)', reply(409), { kind: 'unsure', status: 409 }, false),
	row('500', reply(500), { kind: 'unsure', status: 500 }, false),
	row('503', reply(503), { kind: 'unsure', status: 503 }, false),
	row('300 (a redirect the page did not follow)', reply(300), { kind: 'unsure', status: 300 }, false),
	row('0 (an opaque response: no status to read)', reply(0), { kind: 'unsure', status: 0 }, false),
	row('no answer at all', { kind: 'no-answer' }, { kind: 'unsure', status: null }, false)
];

// Any answer of the kinds the table tries: one of its rows, or another status of every family (with a ticket
// for a 2xx), or no answer at all.
export const answers: fc.Arbitrary<Answer> = fc.oneof(
	fc.constantFrom(...answerCases.map((c) => c.answer)),
	fc
		.integer({ min: 0, max: 599 })
		.chain((status) =>
			fc
				.integer({ min: 1, max: 99 })
				.map((ticket) => reply(status, status >= 200 && status < 300 ? ticket : null))
		),
	fc.constant<Answer>({ kind: 'no-answer' })
);
