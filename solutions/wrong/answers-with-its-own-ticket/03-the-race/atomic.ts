import { UniqueViolation, type Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

// Wrong: on the unique violation it rolls back, but answers with the ticket it had saved, which the
// rollback just took away, instead of reading the receipt the winner committed.
export async function handleAtomically(db: Connection, event: Webhook): Promise<Outcome> {
	await db.begin();
	let ticketId = 0;
	try {
		const seen = await db.findReceipt(event);
		if (seen) {
			await db.commit();
			return replay(seen, event);
		}
		ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
		// If another open transaction saved this key, the insert waits for it to end.
		await db.saveReceipt({ ...event, ticketId });
		await db.commit();
		return { kind: 'created', ticketId };
	} catch (error) {
		// The transaction is aborted either way: roll back, so our ticket goes too.
		if (db.inTransaction) await db.rollback();
		if (!(error instanceof UniqueViolation)) throw error;
		return { kind: 'created', ticketId };
	}
}
