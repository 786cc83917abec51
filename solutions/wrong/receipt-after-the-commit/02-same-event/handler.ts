import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Outcome,
	type Receipt,
	type Webhook
} from '#harness/core/model.ts';

// Wrong on purpose: the receipt is recorded after the ticket's commit, in a second step. A worker that dies
// between the two leaves a ticket with no receipt, and the redelivery makes a second ticket.

// The same event: same tenant, same source, same event id. Compared field by field, never joined into one string.
export function sameEvent(a: Webhook, b: Webhook): boolean {
	return a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
}

// Seen before: answer with the original ticket, unless the same key now carries another request.
export function replay(receipt: Receipt, event: Webhook): Outcome {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}

// Checks for a receipt, saves the ticket, then records the receipt once the ticket is safely saved.
export class ReceiptHandler {
	private db: Database = { tickets: [], receipts: [] };

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const seen = this.db.receipts.find((receipt) => sameEvent(receipt, event));
		// A repeat writes nothing; a worker that dies while answering it still gives no answer.
		if (seen) return fault === 'none' ? replay(seen, event) : crashed;
		if (fault === 'before-commit') return crashed;
		const ticketId = this.db.tickets.length + 1;
		this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		if (fault === 'after-commit') return crashed;
		this.db.receipts.push({ ...event, ticketId });
		return { kind: 'created', ticketId };
	}

	snapshot(): Database {
		return copyDatabase(this.db);
	}
}
