import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Outcome,
	type Receipt,
	type Webhook
} from '#harness/core/model.ts';

// The same event: same tenant, same source, same event id. Compared field by field, never joined into one string.
export function sameEvent(a: Webhook, b: Webhook): boolean {
	return a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
}

// Seen before: the harness already has one, so why write it again?
export { replay } from '#harness/core/replay.ts';
import { replay } from '#harness/core/replay.ts';

// Checks for a receipt, then saves the ticket and its receipt in one commit.
export class ReceiptHandler {
	private db: Database = { tickets: [], receipts: [] };

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const seen = this.db.receipts.find((receipt) => sameEvent(receipt, event));
		// A staged copy stands in for a transaction: nothing is visible until the one assignment below.
		const staged = copyDatabase(this.db);
		let outcome = seen ? replay(seen, event) : null;
		if (!outcome) {
			const ticketId = staged.tickets.length + 1;
			staged.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
			staged.receipts.push({ ...event, ticketId });
			outcome = { kind: 'created', ticketId };
		}
		if (fault === 'before-commit') return crashed;
		this.db = staged;
		if (fault === 'after-commit') return crashed;
		return outcome;
	}

	snapshot(): Database {
		return copyDatabase(this.db);
	}
}
