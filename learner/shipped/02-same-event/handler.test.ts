import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { Receipt, Webhook } from '#harness/core/model.ts';
import { saidIdentity } from '#harness/core/identity.ts';
import { heading } from '#harness/core/manifest.ts';
import { ScheduleMismatch } from '#harness/core/mismatch.ts';
import { handlerCase } from '#harness/handler/cases.ts';
import { playHandlerSchedules, snapshotIsACopy } from '#harness/handler/play.ts';
import { ReceiptHandler, replay, sameEvent } from './handler.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
const receipt42: Receipt = { ...evt42, ticketId: 7 };

// Field values from a tiny alphabet that holds the usual separators and two cases of one letter.
const separators = ['', ':', '/', '|', '-', '.'];
const text = fc
	.array(fc.constantFrom('a', 'A', 'b', ...separators.filter(Boolean)), { maxLength: 4 })
	.map((pieces) => pieces.join(''));
type Pair = [Webhook, Webhook];
const asEvent = ([tenant, source, eventId]: [string, string, string]): Webhook => ({
	tenant,
	source,
	eventId,
	subject: 'x'
});
// Two events that read the same once joined with `sep`: a boundary between two fields moves.
const lookalikes = fc
	.tuple(fc.tuple(text, text, text, text), fc.constantFrom(...separators), fc.boolean())
	.map(([[x, y, z, u], sep, first]): Pair =>
		first
			? [asEvent([x + sep + y, z, u]), asEvent([x, y + sep + z, u])]
			: [asEvent([u, x + sep + y, z]), asEvent([u, x, y + sep + z])]
	);
// The same event, but one field in other letters.
const otherCase = fc.tuple(text, text, text, fc.constantFrom(0, 1, 2)).map(([x, y, z, which]): Pair => {
	const up = (field: string, i: number) => (i === which ? field.toUpperCase() : field);
	return [asEvent([x, y, z]), asEvent([up(x, 0), up(y, 1), up(z, 2)])];
});
const eventPairs = fc.oneof(
	lookalikes,
	otherCase,
	fc.tuple(text, text, text).map((fields): Pair => [asEvent(fields), asEvent(fields)]),
	fc
		.tuple(fc.tuple(text, text, text), fc.tuple(text, text, text))
		.map(([a, b]): Pair => [asEvent(a), asEvent(b)])
);

describe(heading('02'), () => {
	describe('sameEvent: tenant, source and event id name a delivery', () => {
		const cases: [string, Webhook, boolean][] = [
			['the same delivery again', { ...evt42 }, true],
			[
				'the same event with another subject (still the same event)',
				{ ...evt42, subject: 'Cannot export report' },
				true
			],
			['another event id', { ...evt42, eventId: 'evt-43' }, false],
			['another tenant', { ...evt42, tenant: 'globex' }, false],
			['another source', { ...evt42, source: 'billing' }, false],
			['the event id in other letters (EVT-42)', { ...evt42, eventId: 'EVT-42' }, false],
			['the source in other letters (Helpdesk)', { ...evt42, source: 'Helpdesk' }, false],
			['the tenant in other letters (ACME)', { ...evt42, tenant: 'ACME' }, false]
		];
		const call = (a: Webhook, b: Webhook) => `sameEvent(${saidIdentity(a)}, ${saidIdentity(b)})`;
		const identity =
			'an event is its tenant, source and event id, each compared exactly as sent; the subject is no part of it';
		for (const [what, other, same] of cases) {
			handlerCase(`${what}: ${same ? 'same' : 'not the same'}`, (check) => {
				check(call(evt42, other), sameEvent(evt42, other), same, identity);
			});
		}
		handlerCase(
			'tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don\'t join them',
			(check) => {
				const p1: Webhook = { tenant: 'a:b', source: 'c', eventId: 'evt-1', subject: 'Printer on fire' };
				const p2: Webhook = { tenant: 'a', source: 'b:c', eventId: 'evt-1', subject: 'Printer on fire' };
				check(
					call(p1, p2),
					sameEvent(p1, p2),
					false,
					'joined with ":" they read the same, but they are two events'
				);
			}
		);
		it('property: sameEvent is true exactly when tenant, source and event id are each equal', () => {
			const fieldByField = (a: Webhook, b: Webhook) =>
				a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
			const seed = 20260212;
			const run = fc.check(
				fc.property(eventPairs, ([a, b]) => {
					const same = fieldByField(a, b);
					return sameEvent(a, b) === same && sameEvent(b, a) === same;
				}),
				{ seed, numRuns: 2000 }
			);
			if (!run.failed || !run.counterexample) return;
			const [[a, b]] = run.counterexample;
			const said = (e: Webhook) => JSON.stringify({ tenant: e.tenant, source: e.source, eventId: e.eventId });
			const truth = fieldByField(a, b)
				? 'the same event'
				: 'two events, though they may read alike joined into one string';
			throw new ScheduleMismatch(
				`sameEvent(${said(a)}, ${said(b)}) answered ${sameEvent(a, b)}, but field by field these are ${truth}.\nCompare the three fields one by one, exactly as sent. (fast-check, seed ${seed}, shrunk to the smallest case it found)`
			);
		});
	});

	describe('replay: what a repeat gets back', () => {
		const call = (subject: string) =>
			`replay(receipt #7 for "${receipt42.subject}", ${JSON.stringify(subject)})`;
		const conflict = { kind: 'conflict', ticketId: null };
		handlerCase('the same request again gets the original ticket', (check) => {
			check(
				call(evt42.subject),
				replay(receipt42, { ...evt42 }),
				{ kind: 'replayed', ticketId: 7 },
				'the same event with the same subject is the same request: it gets the ticket its receipt names'
			);
		});
		handlerCase(
			'the same key with its subject in other letters is a conflict too: subjects are compared exactly',
			(check) => {
				const other = { ...evt42, subject: 'cannot sign in' };
				check(
					call(other.subject),
					replay(receipt42, other),
					conflict,
					'subjects are compared exactly, as sent: in other letters it is another request'
				);
			}
		);
		handlerCase('the same key with another subject is a conflict, not an unrelated ticket', (check) => {
			const changed = { ...evt42, subject: 'Cannot export report' };
			check(
				call(changed.subject),
				replay(receipt42, changed),
				conflict,
				'the same key with another subject is another request: replaying would hand it an unrelated ticket'
			);
		});
	});

	describe('ReceiptHandler', () => {
		playHandlerSchedules('receipt-in-commit', () => new ReceiptHandler());
		snapshotIsACopy(() => new ReceiptHandler());
		handlerCase('a replay whose worker dies after the commit still saves nothing new', (check) => {
			const handler = new ReceiptHandler();
			handler.handle({ ...evt42 });
			const before = handler.snapshot();
			check(
				'handle(evt-42 again, after-commit)',
				handler.handle({ ...evt42 }, 'after-commit'),
				{ kind: 'crashed', ticketId: null },
				'a worker that dies answers nothing'
			);
			check('the store after it', handler.snapshot(), before, 'a repeat commits nothing');
		});
	});
});
