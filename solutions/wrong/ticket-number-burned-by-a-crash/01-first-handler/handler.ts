import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Outcome,
	type Webhook
} from '#harness/core/model.ts';

// The first handler: every delivery makes a ticket. Right for as long as every delivery is a new request.
export class TicketHandler {
	private db: Database = { tickets: [], receipts: [] };
	// Wrong: the number is taken before the commit, so a crash before it still uses one up.
	private lastTicketId = 0;

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const ticketId = ++this.lastTicketId;
		if (fault === 'before-commit') return crashed;
		this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		// Saved. If the worker dies here, the sender never learns it worked, and will deliver again.
		if (fault === 'after-commit') return crashed;
		return { kind: 'created', ticketId };
	}

	snapshot(): Database {
		return copyDatabase(this.db);
	}
}
