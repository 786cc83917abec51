// Given, not yours to change: the anti-pattern this exercise pins. The handler is exercise 03's fix, and it
// sends the confirmation itself, inside its transaction, before the commit. Its tests pass: they show the damage.
import { UniqueViolation, type Connection } from '#shared/database.ts';
import type { Mail } from '#shared/mail-provider.ts';
import type { Outcome, Receipt, Webhook } from '#shared/model.ts';

function answerRepeat(receipt: Receipt, event: Webhook): Outcome {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}

export async function sendInside(conn: Connection, event: Webhook, mail: Mail): Promise<Outcome> {
	await conn.begin();
	try {
		const seen = await conn.findReceipt(event);
		if (seen) {
			await conn.rollback();
			return answerRepeat(seen, event);
		}
		const ticketId = await conn.saveTicket({ tenant: event.tenant, subject: event.subject });
		await conn.saveReceipt({ ...event, ticketId });
		// The email leaves now. If the commit below never happens, no rollback can call it back, and the
		// ticket it announces is gone with its burned id. Even a good key can't help: the retry's ticket is new.
		await mail.send({
			key: `ticket-confirmation/${event.tenant}/${ticketId}`,
			to: event.tenant,
			ticketId,
			subject: event.subject
		});
		await conn.commit();
		return { kind: 'created', ticketId };
	} catch (error) {
		if (conn.inTransaction) await conn.rollback();
		if (!(error instanceof UniqueViolation)) throw error;
		// Another worker committed this event first: answer with its ticket.
		const receipt = await conn.findReceipt(event);
		if (!receipt) throw error;
		return answerRepeat(receipt, event);
	}
}
