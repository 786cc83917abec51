import { UniqueViolation, type Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

// Wrong: after the unique violation it reads the receipt inside the transaction the error aborted, and
// only rolls back afterwards. The database refuses every call but rollback until then.
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
		if (!(error instanceof UniqueViolation)) throw error;
		const winner = await db.findReceipt(event);
		await db.rollback();
		return replay(winner!, event);
	}
}
