import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Outcome,
	type Webhook
} from '#harness/core/model.ts';

// Wrong on purpose: the ticket number is taken before the commit, so a crash before it still uses one up,
// and the redelivery's ticket is #2 in a database that holds one ticket.
export class TicketHandler {
	private db: Database = { tickets: [], receipts: [] };
	private lastTicketId = 0;

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const ticketId = ++this.lastTicketId;
		if (fault === 'before-commit') return crashed;
		this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		if (fault === 'after-commit') return crashed;
		return { kind: 'created', ticketId };
	}

	snapshot(): Database {
		return copyDatabase(this.db);
	}
}
