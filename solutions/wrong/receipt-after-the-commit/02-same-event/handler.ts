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

// Wrong: checks for a receipt, saves the ticket, and records its receipt in a second step, after the commit.
export class ReceiptHandler {
	private db: Database = { tickets: [], receipts: [] };

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const seen = this.db.receipts.find((receipt) => sameEvent(receipt, event));
		// A staged copy stands in for a transaction: nothing is visible until the one assignment below.
		const staged = copyDatabase(this.db);
		let outcome = seen ? replay(seen, event) : null;
		let receipt: Receipt | null = null;
		if (!outcome) {
			const ticketId = staged.tickets.length + 1;
			staged.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
			receipt = { ...event, ticketId };
			outcome = { kind: 'created', ticketId };
		}
		if (fault === 'before-commit') return crashed;
		this.db = staged;
		if (fault === 'after-commit') return crashed;
		// A worker that dies before this line leaves a ticket with no receipt: the redelivery makes another.
		if (receipt) this.db.receipts.push(receipt);
		return outcome;
	}

	snapshot(): Database {
		return copyDatabase(this.db);
	}
}
