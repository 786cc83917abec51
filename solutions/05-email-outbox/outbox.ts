import type { Connection } from '#harness/database/database.ts';
import { KeyReused, ProviderDown, type Mail } from '#harness/outbox/mail-provider.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import type { EmailKind } from '#harness/outbox/model.ts';
import { handleAtomically } from '#harness/race/atomic.ts';

// The email's own idempotency key, from the stored ticket: its tenant, its id and the kind of email. Never from
// the event id (two tenants can both send evt-42) or the subject (two customers can write the same words).
// Only the tenant is free text, and it sits between two fields that can't hold a "/", so no two keys collide.
export function emailKey(tenant: string, ticketId: number, kind: EmailKind): string {
	return `${kind}/${tenant}/${ticketId}`;
}

// Exercise 03's fix, and in its transaction, before the commit, the outbox row: what to send, under its
// own key. The ticket, its receipt and its row commit together or vanish together; a repeat or a conflict
// writes no row.
export async function handleWithOutbox(db: Connection, event: Webhook): Promise<Outcome> {
	return handleAtomically(db, event, (ticketId) =>
		db.saveOutbox({
			key: emailKey(event.tenant, ticketId, 'ticket-confirmation'),
			tenant: event.tenant,
			ticketId,
			to: event.tenant,
			subject: event.subject
		})
	);
}

// After the commit: send each pending row with its key, then mark it sent. A crash between the two sends it
// again on the next run, and the provider recognises the key; marking first would lose the email instead.
export async function relay(db: Connection, mail: Mail): Promise<void> {
	for (const row of await db.pendingOutbox()) {
		try {
			await mail.send({ key: row.key, to: row.to, ticketId: row.ticketId, subject: row.subject });
		} catch (error) {
			// The provider is down or refused the key: the row stays pending for the next run.
			if (error instanceof ProviderDown || error instanceof KeyReused) continue;
			throw error;
		}
		await db.markSent(row.id);
	}
}
