// A learner's exercise 01 that ends the process as soon as it is imported, hoping to end the grading with it.
import type { Database, Fault, Outcome, Webhook } from '#harness/core/model.ts';

process.exit(0);

export class TicketHandler {
	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		return { kind: 'created', ticketId: 1 };
	}

	snapshot(): Database {
		return { tickets: [], receipts: [] };
	}
}
