// Exercise 02's replay, given from exercise 03 on: what a repeat of a known event gets back.
import type { Outcome, Receipt, Webhook } from './model.ts';

// The original ticket, unless the same key now carries another request (a different subject).
export function replay(receipt: Receipt, event: Webhook): Outcome {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}
