import { describe, expect, it } from 'vitest';
import type { Webhook } from '#harness/core/model.ts';
import { heading } from '#harness/core/manifest.ts';
import { playHandlerSchedules, snapshotIsACopy } from '#harness/handler/play.ts';
import { TicketHandler } from './handler.ts';

describe(heading('01'), () => {
	playHandlerSchedules('create-every-time', () => new TicketHandler());
	snapshotIsACopy(() => new TicketHandler());

	it('a crash before the commit saves nothing; a crash after it keeps the ticket', () => {
		const evt42: Webhook = {
			tenant: 'acme',
			source: 'helpdesk',
			eventId: 'evt-42',
			subject: 'Cannot sign in'
		};
		const handler = new TicketHandler();
		expect(handler.handle(evt42, 'before-commit')).toEqual({ kind: 'crashed', ticketId: null });
		expect(handler.snapshot().tickets, 'the worker died before saving anything').toEqual([]);
		expect(handler.handle(evt42, 'after-commit')).toEqual({ kind: 'crashed', ticketId: null });
		expect(handler.snapshot().tickets, 'the ticket was saved, then the worker died').toEqual([
			{ id: 1, tenant: 'acme', subject: 'Cannot sign in' }
		]);
	});
});
