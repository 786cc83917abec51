// Exercise 02's checks: sameEvent and replay on the given pairs and on random ones, compared with the
// reference's answers; ReceiptHandler on the shipped schedules and on random ones.
import fc from 'fast-check';
import type { Receipt, Webhook } from '#harness/core/model.ts';
import { canonical, heldOut, said, type Check, type Probe } from '../trusted/probe.ts';
import { givenSchedules, heldOutSchedules, snapshotIsACopy, webhook } from './handler.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
const receipt42: Receipt = { ...evt42, ticketId: 7 };

const sameAsReference =
	(call: string) =>
	(input: unknown[], got: unknown, wanted: unknown): string | null =>
		canonical(got) === canonical(wanted)
			? null
			: `${call}(${input.map(said).join(', ')}): expected ${said(wanted)}, your code ${said(got)}`;

const given = (name: string, observer: string, input: unknown[]): Check => ({
	name,
	heldOut: false,
	observer,
	cases: [input],
	judge: sameAsReference(observer === 'same-event' ? 'sameEvent' : 'replay')
});

const pairs: [string, Webhook, Webhook][] = [
	['the same delivery again: same', evt42, { ...evt42 }],
	[
		'the same event with another subject (still the same event): same',
		evt42,
		{ ...evt42, subject: 'Cannot export report' }
	],
	['another event id: not the same', evt42, { ...evt42, eventId: 'evt-43' }],
	['another tenant: not the same', evt42, { ...evt42, tenant: 'globex' }],
	['another source: not the same', evt42, { ...evt42, source: 'billing' }],
	[
		'tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don\'t join them',
		{ tenant: 'a:b', source: 'c', eventId: 'evt-1', subject: 'Printer on fire' },
		{ tenant: 'a', source: 'b:c', eventId: 'evt-1', subject: 'Printer on fire' }
	]
];

const repeatAfterCommit: Check = {
	name: 'ReceiptHandler › a replay whose worker dies after the commit still saves nothing new',
	heldOut: false,
	observer: 'repeat-after-commit',
	cases: [evt42],
	judge: (_input, { answer, before, after }: { answer: unknown; before: unknown; after: unknown }) => {
		if (canonical(answer) !== canonical({ kind: 'crashed', ticketId: null }))
			return `A repeat of evt-42 whose worker dies after the commit: expected crashed (nobody hears an answer), your handler ${said(answer)}.`;
		return canonical(after) === canonical(before)
			? null
			: `A repeat commits nothing, but the store changed.\nbefore: ${said(before)}\nafter:  ${said(after)}`;
	}
};

// replay is only asked about the same event, so the event keeps the receipt's identity.
const receiptAndEvent = fc
	.tuple(webhook, webhook, fc.integer({ min: 1, max: 9 }))
	.map(([seen, event, ticketId]) => [
		{ ...seen, ticketId },
		{ ...event, tenant: seen.tenant, source: seen.source, eventId: seen.eventId }
	]);

export const probe: Probe = (settings) => [
	...pairs.map(([what, a, b]) => given(`sameEvent › ${what}`, 'same-event', [a, b])),
	given('replay › the same request again gets the original ticket', 'replay', [receipt42, { ...evt42 }]),
	given('replay › the same key with another subject is a conflict, not an unrelated ticket', 'replay', [
		receipt42,
		{ ...evt42, subject: 'Cannot export report' }
	]),
	...givenSchedules('receipt-in-commit'),
	snapshotIsACopy,
	repeatAfterCommit,
	...heldOut(settings, 'sameEvent pairs', fc.tuple(webhook, webhook), () => ({
		observer: 'same-event',
		judge: sameAsReference('sameEvent')
	})),
	...heldOut(settings, 'replay answers', receiptAndEvent, () => ({
		observer: 'replay',
		judge: sameAsReference('replay')
	})),
	...heldOutSchedules(settings, 'receipt-in-commit')
];
