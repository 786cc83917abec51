import { UniqueViolation, type Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

// The fix: the receipt check, the ticket and the receipt in one transaction. When the receipt's insert hits
// the unique key, another worker got there first: roll back, read its receipt, and answer with it.
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
		if (!(error instanceof UniqueViolation)) throw error;
		// The other worker committed its receipt; read it outside our dead transaction.
		const winner = await db.findReceipt(event);
		if (!winner) throw error;
		return replay(winner, event);
	}
}
