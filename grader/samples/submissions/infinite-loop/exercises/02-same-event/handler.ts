// A learner's exercise 02 whose handler never returns: the grader must stop it and grade the rest.
import type { Database, Fault, Outcome, Receipt, Webhook } from '#harness/core/model.ts';

export function sameEvent(a: Webhook, b: Webhook): boolean {
	return a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
}

export function replay(receipt: Receipt, event: Webhook): Outcome {
	return receipt.subject === event.subject
		? { kind: 'replayed', ticketId: receipt.ticketId }
		: { kind: 'conflict', ticketId: null };
}

export class ReceiptHandler {
	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		// Waits for a receipt that nothing will ever write.
		for (;;) {}
	}

	snapshot(): Database {
		return { tickets: [], receipts: [] };
	}
}
