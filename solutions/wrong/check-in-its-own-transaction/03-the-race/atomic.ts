import type { Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';

// Wrong: the check runs in a transaction of its own, committed before the ticket's transaction starts. Its
// answer is stale by the time the insert runs, so the loser of a race meets the unique key unprepared.
export async function handleAtomically(db: Connection, event: Webhook): Promise<Outcome> {
	await db.begin();
	const seen = await db.findReceipt(event);
	await db.commit();
	if (seen) return replay(seen, event);
	await db.begin();
	const ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
	await db.saveReceipt({ ...event, ticketId });
	await db.commit();
	return { kind: 'created', ticketId };
}
