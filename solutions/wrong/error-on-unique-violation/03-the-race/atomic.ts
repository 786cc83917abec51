import type { Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

// Wrong: the receipt check, the ticket and the receipt in one transaction, but a unique violation is thrown
// like any other error: the request that lost the race gets an error for a ticket that exists.
export async function handleAtomically(db: Connection, event: Webhook): Promise<Outcome> {
	await db.begin();
	try {
		const seen = await db.findReceipt(event);
		if (seen) {
			await db.commit();
			return replay(seen, event);
		}
		const ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
		// If another open transaction saved this key, the insert waits for it to end.
		await db.saveReceipt({ ...event, ticketId });
		await db.commit();
		return { kind: 'created', ticketId };
	} catch (error) {
		// The transaction is aborted either way: roll back, so our ticket goes too.
		if (db.inTransaction) await db.rollback();
		throw error;
	}
}
