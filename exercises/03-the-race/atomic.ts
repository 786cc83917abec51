// saveReceipt throws UniqueViolation when another worker committed the same key (after waiting, if its
// transaction was still open).
import { UniqueViolation, type Connection } from '#harness/database/database.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { todo } from '#harness/core/todo.ts';
// replay(receipt, event): a replayed answer with the receipt's ticket, or a conflict when the subject differs.
import { replay } from '#harness/core/replay.ts';

// The fix: the receipt check, the ticket and the receipt in one transaction. When the receipt's insert hits
// the unique key, another worker got there first: roll back, read its receipt, and answer with it.
export async function handleAtomically(db: Connection, event: Webhook): Promise<Outcome> {
	return todo('handleAtomically', '03-the-race/atomic.ts');
}
