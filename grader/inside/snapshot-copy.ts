// What a handler's store looks like before and after a caller scribbles on what snapshot() handed out.
import type { Handler } from '#harness/core/model.ts';

// Both snapshots go out as data; the grader compares them, outside the sandbox.
export function snapshotCopy(handler: Handler): { before: unknown; after: unknown } {
	handler.handle({ tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' });
	const before = structuredClone(handler.snapshot());
	const copy = handler.snapshot();
	copy.tickets.push({ id: 99, tenant: 'mallory', subject: 'Pushed into a snapshot' });
	copy.receipts.push({ tenant: 'mallory', source: 'x', eventId: 'x', subject: 'x', ticketId: 99 });
	if (copy.tickets[0]) copy.tickets[0].subject = 'Changed through a snapshot';
	if (copy.receipts[0]) copy.receipts[0].ticketId = 99;
	return { before, after: handler.snapshot() };
}
