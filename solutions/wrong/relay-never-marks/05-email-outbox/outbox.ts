import { UniqueViolation, type Connection } from '#harness/database/database.ts';
import { KeyReused, ProviderDown, type Mail } from '#harness/outbox/mail-provider.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import type { EmailKind } from '#harness/outbox/model.ts';
import { replay } from '#harness/core/replay.ts';

// The email's own idempotency key, from the stored ticket: its tenant, its id and the kind of email. Never from
// the event id (two tenants can both send evt-42) or the subject (two customers can write the same words).
// Only the tenant is free text, and it sits between two fields that can't hold a "/", so no two keys collide.
export function emailKey(tenant: string, ticketId: number, kind: EmailKind): string {
	return `${kind}/${tenant}/${ticketId}`;
}

// Exercise 03's fix, and in the same transaction the outbox row: what to send, under its own key. The ticket,
// its receipt and its row commit together or vanish together; a repeat or a conflict writes no row.
export async function handleWithOutbox(db: Connection, event: Webhook): Promise<Outcome> {
	await db.begin();
	try {
		const seen = await db.findReceipt(event);
		if (seen) {
			await db.commit();
			return replay(seen, event);
		}
		const ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
		await db.saveReceipt({ ...event, ticketId });
		await db.saveOutbox({
			key: emailKey(event.tenant, ticketId, 'ticket-confirmation'),
			tenant: event.tenant,
			ticketId,
			to: event.tenant,
			subject: event.subject
		});
		await db.commit();
		return { kind: 'created', ticketId };
	} catch (error) {
		if (db.inTransaction) await db.rollback();
		if (!(error instanceof UniqueViolation)) throw error;
		// Another worker committed this event first: its receipt has the ticket to answer with.
		const winner = await db.findReceipt(event);
		if (!winner) throw error;
		return replay(winner, event);
	}
}

// Wrong: after the commit, sends each pending row with its key, and never marks it sent: every run sends
// every row again, and only the provider's window stops it.
export async function relay(db: Connection, mail: Mail): Promise<void> {
	for (const row of await db.pendingOutbox()) {
		try {
			await mail.send({ key: row.key, to: row.to, ticketId: row.ticketId, subject: row.subject });
		} catch (error) {
			// The provider is down or refused the key: the row stays pending for the next run.
			if (error instanceof ProviderDown || error instanceof KeyReused) continue;
			throw error;
		}
	}
}
