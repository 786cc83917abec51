// What a failing held-out case's message may show of the code's answer: the case's own values, a few
// characters of the code's own, and nothing of the other inputs, however the code writes them.
import { describe, expect, it } from 'vitest';
import { encodedForms } from './grade.ts';
import { publicValuesOf, shownAnswer, shownErrorName } from './held-out-answer.ts';

const input = [
	{ tenant: 'acme', source: 'helpdesk', eventId: 'evt-7', subject: 'Printer on fire', ticketId: 3 }
];
const expected = { kind: 'replayed', ticketId: 3 };
const others = Array.from({ length: 15 }, (_, n) => ({
	tenant: `tenant-${n}-xq`,
	source: 'billing',
	eventId: `evt-held-${n}-zz`,
	subject: `Subject number ${n} of the held-out`
}));
const text = JSON.stringify(others);

// Every way of writing the other inputs that a message could carry, each looked for in what is shown.
const forms = (value: unknown) => {
	const said = JSON.stringify(value);
	return others.flatMap((other) =>
		[other.eventId, other.subject, JSON.stringify(other)].flatMap((part) =>
			encodedForms(part).filter((form) => said.includes(form))
		)
	);
};

// What the given checks hand out and expect: public words, shown wherever they appear.
const publicValues = publicValuesOf([
	{
		cases: [],
		expected: [
			{ kind: 'created', ticketId: 1 },
			{ kind: 'crashed', ticketId: null }
		]
	}
]);

describe('shownAnswer', () => {
	it("shows an answer made of the case's own values and public words as it is", () => {
		for (const answer of [
			expected,
			{ kind: 'created', ticketId: 3 },
			{ kind: 'replayed', ticketId: 4 },
			[true, null]
		])
			expect(shownAnswer(answer, input, expected, publicValues)).toEqual(answer);
	});

	it('shows four small numbers of its own, and the rest numbered, equal values alike', () => {
		const shown = shownAnswer(
			{ kind: 'crashed', ticketId: 9, detail: 'oops', again: 'oops', codes: [500, 501, 502, 503, 504] },
			input,
			expected,
			publicValues
		);
		// Keys of its own are the code's own values too.
		expect(shown).toEqual({
			kind: 'crashed',
			ticketId: 9,
			'⟨yours 1, not shown⟩': '⟨yours 2, not shown⟩',
			'⟨yours 3, not shown⟩': '⟨yours 2, not shown⟩',
			'⟨yours 4, not shown⟩': [500, 501, 502, '⟨yours 5, not shown⟩', '⟨yours 6, not shown⟩']
		});
	});

	it('shows none of the other inputs, however they are written into the answer', () => {
		const answers = [
			{ kind: 'replayed', ticketId: 3, subject: text },
			{ kind: 'replayed', ticketId: 3, leak: Buffer.from(text).toString('base64') },
			{ kind: 'replayed', ticketId: 3, leak: Buffer.from(text).toString('hex') },
			{ kind: 'replayed', ticketId: 3, leak: [...text].map((c) => c.charCodeAt(0)) },
			{ kind: 'replayed', ticketId: 3, leak: [...text] },
			{ kind: 'replayed', ticketId: 3, leak: Object.fromEntries(others.map((o) => [o.subject, o.eventId])) },
			Object.fromEntries(others.map((o) => [JSON.stringify(o), 1])),
			others
		];
		for (const answer of answers) {
			const shown = shownAnswer(answer, input, expected, publicValues);
			expect(forms(shown), JSON.stringify(shown).slice(0, 200)).toEqual([]);
		}
	});

	it("shows JavaScript's and the harness's error names, not one of the code's own", () => {
		expect(shownErrorName('TypeError')).toBe('TypeError');
		expect(shownErrorName('NotWrittenYet')).toBe('NotWrittenYet');
		expect(shownErrorName('evt-held-1-zz')).toBe('an error of its own');
	});
});
