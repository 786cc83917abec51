import { todo } from '#harness/core/todo.ts';
import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Outcome,
	type Receipt,
	type Webhook
} from '#harness/core/model.ts';

// The same event: same tenant, same source, same event id.
export function sameEvent(a: Webhook, b: Webhook): boolean {
	return todo('sameEvent', '02-same-event/handler.ts');
}

// Seen before: answer with the original ticket, unless the same key now carries another request.
export function replay(receipt: Receipt, event: Webhook): Outcome {
	return todo('replay', '02-same-event/handler.ts');
}

// Checks for a receipt, then saves the ticket and its receipt in one commit.
export class ReceiptHandler {
	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		return todo('ReceiptHandler.handle', '02-same-event/handler.ts');
	}

	snapshot(): Database {
		return todo('ReceiptHandler.snapshot', '02-same-event/handler.ts');
	}
}
