import { crashed, type Database, type Fault, type Outcome, type Webhook } from '#harness/core/model.ts';

// Wrong on purpose: snapshot() hands out the store itself, so whoever reads it can rewrite it.
export class TicketHandler {
	private db: Database = { tickets: [], receipts: [] };

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		if (fault === 'before-commit') return crashed;
		const ticketId = this.db.tickets.length + 1;
		this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		if (fault === 'after-commit') return crashed;
		return { kind: 'created', ticketId };
	}

	snapshot(): Database {
		return { tickets: this.db.tickets, receipts: this.db.receipts };
	}
}
