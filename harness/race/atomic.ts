// Exercise 03's handleAtomically, given from exercise 05 on: the receipt check, the ticket and its receipt in
// one transaction, with one place left open inside it, before the commit.
//
//   await handleAtomically(db, event);                                  // exercise 03's fix, as it is
//   await handleAtomically(db, event, (ticketId) => db.saveOutbox(…));  // one more write, in its commit
//
// beforeCommit runs once a new ticket and its receipt are saved, with the new ticket's id, in the same
// transaction: what it writes commits with the ticket or vanishes with it. A repeat or a conflict never calls
// it. If it throws, the transaction rolls back and the error goes on to the caller (a UniqueViolation is
// answered from the event's receipt, as 03's fix answers a receipt's, if there is one). What the caller does
// after handleAtomically returns is after the commit: a crash there keeps the ticket and loses the rest.
import { UniqueViolation, type Connection } from '../database/database.ts';
import type { Outcome, Webhook } from '../core/model.ts';
import { replay } from '../core/replay.ts';

export type BeforeCommit = (ticketId: number) => Promise<unknown>;

export async function handleAtomically(
	db: Connection,
	event: Webhook,
	beforeCommit: BeforeCommit = async () => {}
): Promise<Outcome> {
	await db.begin();
	try {
		const seen = await db.findReceipt(event);
		if (seen) {
			await db.commit();
			return replay(seen, event);
		}
		const ticketId = await db.saveTicket({ tenant: event.tenant, subject: event.subject });
		await db.saveReceipt({ ...event, ticketId });
		await beforeCommit(ticketId);
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
