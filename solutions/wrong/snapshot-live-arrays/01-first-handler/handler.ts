import { crashed, type Database, type Fault, type Outcome, type Webhook } from '#harness/core/model.ts';

// The first handler: every delivery makes a ticket. Right for as long as every delivery is a new request.
export class TicketHandler {
	private db: Database = { tickets: [], receipts: [] };

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		if (fault === 'before-commit') return crashed;
		const ticketId = this.db.tickets.length + 1;
		this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		// Saved. If the worker dies here, the sender never learns it worked, and will deliver again.
		if (fault === 'after-commit') return crashed;
		return { kind: 'created', ticketId };
	}

	// Wrong: the store's own arrays, so whoever reads them can rewrite the store.
	snapshot(): Database {
		return { tickets: this.db.tickets, receipts: this.db.receipts };
	}
}
