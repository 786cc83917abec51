// The identity's one home: the rule compares field by field, and the printed form keeps today's plain
// words for plain fields, quotes the rest, and never prints two different identities alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoted, sameEvent, saidIdentity, type EventIdentity } from './identity.ts';

const identity = (tenant: string, source: string, eventId: string): EventIdentity => ({
	tenant,
	source,
	eventId
});

describe('the same event', () => {
	it('is tenant, source and event id, each equal', () => {
		expect(sameEvent(identity('acme', 'helpdesk', 'evt-42'), identity('acme', 'helpdesk', 'evt-42'))).toBe(
			true
		);
		expect(sameEvent(identity('a:b', 'c', 'evt-1'), identity('a', 'b:c', 'evt-1'))).toBe(false);
		expect(sameEvent(identity('a/b', 'c', 'evt-1'), identity('a', 'b/c', 'evt-1'))).toBe(false);
	});
});

describe('an identity, printed', () => {
	const cases: [string, EventIdentity, string][] = [
		['plain fields, joined with "/"', identity('acme', 'helpdesk', 'evt-42'), 'acme/helpdesk/evt-42'],
		['other separators are plain', identity('a:b', 'c|d', 'e-f'), 'a:b/c|d/e-f'],
		['a "/" inside a field: every field quoted', identity('a/b', 'c', 'evt-1'), '"a/b"/"c"/"evt-1"'],
		['the other side of that look-alike', identity('a', 'b/c', 'evt-1'), '"a"/"b/c"/"evt-1"'],
		['an empty field', identity('', 'helpdesk', 'evt-42'), '""/"helpdesk"/"evt-42"'],
		['a space', identity('acme corp', 'helpdesk', 'evt-42'), '"acme corp"/"helpdesk"/"evt-42"'],
		['a quote and a backslash', identity('a"b', 'c\\d', 'e'), '"a\\"b"/"c\\\\d"/"e"'],
		['a newline and a tab', identity('a\nb', 'c\td', 'e'), '"a\\nb"/"c\\td"/"e"'],
		[
			'a character nobody can see',
			identity('acme\u200b', 'helpdesk', 'evt-42'),
			'"acme\\u200b"/"helpdesk"/"evt-42"'
		],
		['a space that is not the plain one', identity('acme\u00a0corp', 'x', 'y'), '"acme\\u00a0corp"/"x"/"y"'],
		['letters beyond ASCII are plain', identity('zürich', '帮助', 'évt-1'), 'zürich/帮助/évt-1']
	];
	for (const [what, event, said] of cases)
		it(`${what}: ${said}`, () => expect(saidIdentity(event)).toBe(said));

	it('quotes a field as JSON does, so JSON reads it back', () => {
		fc.assert(fc.property(fc.string({ unit: 'binary' }), (field) => JSON.parse(quoted(field)) === field));
		// Half of a surrogate pair, standing alone, and a character beyond the first 65536 that can't be seen.
		expect(quoted('\ud800')).toBe('"\\ud800"');
		expect(quoted('\u{e0001}')).toBe('"\\udb40\\udc01"');
		expect(JSON.parse(quoted('\ud800\u{e0001}'))).toBe('\ud800\u{e0001}');
	});
	it('never prints two different identities alike', () => {
		// Fields drawn from the characters that make joined identities collide, so look-alikes are common.
		const field = fc.string({
			unit: fc.constantFrom('a', 'b', '/', '"', '\\', ' ', '\n', '\u200b'),
			maxLength: 3
		});
		const event = fc.record({ tenant: field, source: field, eventId: field });
		fc.assert(
			fc.property(event, event, (a, b) => (saidIdentity(a) === saidIdentity(b)) === sameEvent(a, b)),
			{ numRuns: 2000 }
		);
	});
});
