import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Outcome,
	type Receipt,
	type Webhook
} from '#harness/core/model.ts';

// Wrong: the same event is the same tenant, source and words, so a new event in the same words is a repeat.
export function sameEvent(a: Webhook, b: Webhook): boolean {
	return a.tenant === b.tenant && a.source === b.source && fingerprint(a.subject) === fingerprint(b.subject);
}

// FNV-1a over the text: the same words give the same fingerprint.
function fingerprint(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return hash;
}

// Seen before: answer with the original ticket, unless the same key now carries another request.
export function replay(receipt: Receipt, event: Webhook): Outcome {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}

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
