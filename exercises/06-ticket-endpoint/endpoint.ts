import type { Outcome, Webhook } from '#harness/core/model.ts';
import type { EndpointOptions, Route } from '#harness/endpoint/contract.ts';
import { todo } from '#harness/core/todo.ts';

// POST /api/tickets: a ticket and the saved answer for its Idempotency-Key commit together, so a retry with
// the same key and body gets that answer back, byte for byte, and never a second ticket.
export function tickets(options: EndpointOptions): Route {
	return async (request) => todo('tickets', '06-ticket-endpoint/endpoint.ts');
}

// POST /webhooks: exercise 03's handler on PostgreSQL. The receipt and the ticket commit together; a receipt
// older than the retention is forgotten.
export function webhooks(options: EndpointOptions): Route {
	return async (request) => todo('webhooks', '06-ticket-endpoint/endpoint.ts');
}
