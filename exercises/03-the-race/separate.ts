// Given, not yours to change: the receipt check written as three steps, each committing on its own.
// One delivery at a time it does everything the lesson asks. Two at once is another story: see README.md.
import type { Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

export async function handleSeparately(db: Connection, event: Webhook): Promise<Outcome> {
	// 1. Look for a receipt. This read commits on its own: it promises nothing about a moment from now.
	const seen = await db.findReceipt(event);
	if (seen) return replay(seen, event);
	// 2. Save the ticket, committed at once.
	const ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
	// 3. Record the receipt, committed at once. The unique key on (tenant, source, event id) is the only guard.
	await db.saveReceipt({ ...event, ticketId });
	return { kind: 'created', ticketId };
}
