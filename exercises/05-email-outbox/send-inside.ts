// Given, not yours to change: the anti-pattern this exercise pins. The handler is exercise 03's fix, and it
// sends the confirmation itself, inside its transaction, before the commit. Its tests pass: they show the damage.
import type { Connection } from '#harness/database/database.ts';
import type { Mail } from '#harness/outbox/mail-provider.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { handleAtomically } from '#harness/race/atomic.ts';

export async function sendInside(db: Connection, event: Webhook, mail: Mail): Promise<Outcome> {
	return handleAtomically(db, event, (ticketId) =>
		// The email leaves now. If the commit after it never happens, no rollback can call it back, and the
		// ticket it announces is gone with its burned id. Even a good key can't help: the retry's ticket is new.
		mail.send({
			key: `ticket-confirmation/${event.tenant}/${ticketId}`,
			to: event.tenant,
			ticketId,
			subject: event.subject
		})
	);
}
