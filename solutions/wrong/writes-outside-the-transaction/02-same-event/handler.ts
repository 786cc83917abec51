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

// Seen before: answer with the original ticket, unless the same key now carries another request.
export function replay(receipt: Receipt, event: Webhook): Outcome {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}

// Wrong: checks for a receipt, then writes the ticket and its receipt straight into the store, so a crash
// "before the commit" has already saved them, and the redelivery is taken for a repeat.
export class ReceiptHandler {
	private db: Database = { tickets: [], receipts: [] };

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const seen = this.db.receipts.find((receipt) => sameEvent(receipt, event));
		let outcome = seen ? replay(seen, event) : null;
		if (!outcome) {
			const ticketId = this.db.tickets.length + 1;
			this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
			this.db.receipts.push({ ...event, ticketId });
			outcome = { kind: 'created', ticketId };
		}
		if (fault === 'before-commit') return crashed;
		if (fault === 'after-commit') return crashed;
		return outcome;
	}

	snapshot(): Database {
		return copyDatabase(this.db);
	}
}
