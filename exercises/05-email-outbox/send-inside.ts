// Given, not yours to change: the anti-pattern this exercise pins. The handler is exercise 03's fix, and it
// sends the confirmation itself, inside its transaction, before the commit. Its tests pass: they show the damage.
import { UniqueViolation, type Connection } from '#harness/database/database.ts';
import type { Mail } from '#harness/outbox/mail-provider.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

export async function sendInside(db: Connection, event: Webhook, mail: Mail): Promise<Outcome> {
	await db.begin();
	try {
		const seen = await db.findReceipt(event);
		if (seen) {
			await db.commit();
			return replay(seen, event);
		}
		const ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
		await db.saveReceipt({ ...event, ticketId });
		// The email leaves now. If the commit below never happens, no rollback can call it back, and the
		// ticket it announces is gone with its burned id. Even a good key can't help: the retry's ticket is new.
		await mail.send({
			key: `ticket-confirmation/${event.tenant}/${ticketId}`,
			to: event.tenant,
			ticketId,
			subject: event.subject
		});
		await db.commit();
		return { kind: 'created', ticketId };
	} catch (error) {
		if (db.inTransaction) await db.rollback();
		if (!(error instanceof UniqueViolation)) throw error;
		// Another worker committed this event first: answer with its ticket.
		const winner = await db.findReceipt(event);
		if (!winner) throw error;
		return replay(winner, event);
	}
}
