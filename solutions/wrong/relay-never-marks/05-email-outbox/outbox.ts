import { UniqueViolation, type Connection } from '#shared/database.ts';
import { KeyReused, ProviderDown, type Mail } from '#shared/mail-provider.ts';
import type { Outcome, Receipt, Webhook } from '#shared/model.ts';
import type { EmailKind } from '#shared/outbox-model.ts';

// The email's own idempotency key, from the stored ticket: its tenant, its id and the kind of email. Never from
// the event id (two tenants can both send evt-42) or the subject (two customers can write the same words).
// Only the tenant is free text, and it sits between two fields that can't hold a "/", so no two keys collide.
export function emailKey(tenant: string, ticketId: number, kind: EmailKind): string {
	return `${kind}/${tenant}/${ticketId}`;
}

function answerRepeat(receipt: Receipt, event: Webhook): Outcome {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}

// Exercise 03's fix, and in the same transaction the outbox row: what to send, under its own key.
export async function handle(conn: Connection, event: Webhook): Promise<Outcome> {
	await conn.begin();
	try {
		const seen = await conn.findReceipt(event);
		if (seen) {
			await conn.rollback();
			return answerRepeat(seen, event);
		}
		const ticketId = await conn.saveTicket({ tenant: event.tenant, subject: event.subject });
		await conn.saveReceipt({ ...event, ticketId });
		await conn.saveOutbox({
			key: emailKey(event.tenant, ticketId, 'ticket-confirmation'),
			tenant: event.tenant,
			ticketId,
			to: event.tenant,
			subject: event.subject
		});
		await conn.commit();
		return { kind: 'created', ticketId };
	} catch (error) {
		if (conn.inTransaction) await conn.rollback();
		if (!(error instanceof UniqueViolation)) throw error;
		// Another worker committed this event first: its receipt has the ticket to answer with.
		const receipt = await conn.findReceipt(event);
		if (!receipt) throw error;
		return answerRepeat(receipt, event);
	}
}

// After the commit: send each pending row with its key, then mark it sent. A crash between the two sends it
// again on the next run, and the provider recognises the key; marking first would lose the email instead.
export async function relay(conn: Connection, mail: Mail): Promise<void> {
	for (const row of await conn.pendingOutbox()) {
		try {
			await mail.send({ key: row.key, to: row.to, ticketId: row.ticketId, subject: row.subject });
		} catch (error) {
			// The provider is down or refused the key: the row stays pending for the next run.
			if (error instanceof ProviderDown || error instanceof KeyReused) continue;
			throw error;
		}
		// Wrong: never marked, so every run sends every row again, and only the provider's window stops it.
	}
}
