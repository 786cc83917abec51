import { todo } from '#harness/core/todo.ts';
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
	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		return todo('TicketHandler.handle', '01-first-handler/handler.ts');
	}

	snapshot(): Database {
		return todo('TicketHandler.snapshot', '01-first-handler/handler.ts');
	}
}
