// What a handler's store looks like before and after a caller scribbles on what snapshot() handed out.
import type { Handler } from '#shared/model.ts';

export function snapshotCopy(handler: Handler): { before: string; after: string } {
	handler.handle({ tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' });
	const before = JSON.stringify(handler.snapshot());
	const copy = handler.snapshot();
	copy.tickets.push({ id: 99, tenant: 'mallory', subject: 'Pushed into a snapshot' });
	copy.receipts.push({ tenant: 'mallory', source: 'x', eventId: 'x', subject: 'x', ticketId: 99 });
	if (copy.tickets[0]) copy.tickets[0].subject = 'Changed through a snapshot';
	if (copy.receipts[0]) copy.receipts[0].ticketId = 99;
	return { before, after: JSON.stringify(handler.snapshot()) };
}
