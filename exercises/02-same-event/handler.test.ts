import { describe, expect, it } from 'vitest';
import type { Receipt, Webhook } from '#shared/model/model.ts';
import { heading } from '#shared/manifest.ts';
import { playHandlerSchedules, snapshotIsACopy } from '#shared/players/play-handler.ts';
import { ReceiptHandler, replay, sameEvent } from './handler.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
const receipt42: Receipt = { ...evt42, ticketId: 7 };

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
			['another source', { ...evt42, source: 'billing' }, false]
		];
		for (const [what, other, same] of cases) {
			it(`${what}: ${same ? 'same' : 'not the same'}`, () => {
				expect(sameEvent(evt42, other), `sameEvent(evt-42, ${what})`).toBe(same);
			});
		}
		it('tenant "a:b" + source "c" is not tenant "a" + source "b:c": compare fields, don\'t join them', () => {
			const p1: Webhook = { tenant: 'a:b', source: 'c', eventId: 'evt-1', subject: 'Printer on fire' };
			const p2: Webhook = { tenant: 'a', source: 'b:c', eventId: 'evt-1', subject: 'Printer on fire' };
			expect(sameEvent(p1, p2), 'joined with ":" they read the same, but they are two events').toBe(false);
		});
	});

	describe('replay: what a repeat gets back', () => {
		it('the same request again gets the original ticket', () => {
			expect(replay(receipt42, { ...evt42 })).toEqual({ kind: 'replayed', ticketId: 7 });
		});
		it('the same key with another subject is a conflict, not an unrelated ticket', () => {
			const changed = { ...evt42, subject: 'Cannot export report' };
			expect(replay(receipt42, changed)).toEqual({ kind: 'conflict', ticketId: null });
		});
	});

	describe('ReceiptHandler', () => {
		playHandlerSchedules('receipt-in-commit', () => new ReceiptHandler());
		snapshotIsACopy(() => new ReceiptHandler());
		it('a replay whose worker dies after the commit still saves nothing new', () => {
			const handler = new ReceiptHandler();
			handler.handle({ ...evt42 });
			const before = handler.snapshot();
			expect(handler.handle({ ...evt42 }, 'after-commit')).toEqual({ kind: 'crashed', ticketId: null });
			expect(handler.snapshot(), 'a repeat commits nothing').toEqual(before);
		});
	});
});
