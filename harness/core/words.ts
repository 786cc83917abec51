// The lesson's plain words for what a handler did.
import type { Outcome, Receipt, Ticket, Webhook } from './model.ts';

export function identity(event: Pick<Webhook, 'tenant' | 'source' | 'eventId'>): string {
	return `${event.tenant}/${event.source}/${event.eventId}`;
}

export function saidOutcome(outcome: Outcome | undefined): string {
	if (outcome === undefined || outcome === null || typeof outcome !== 'object')
		return `returned ${String(outcome)}`;
	switch (outcome.kind) {
		case 'created':
			return `created #${outcome.ticketId}`;
		case 'replayed':
			return `replayed #${outcome.ticketId}`;
		case 'conflict':
			return outcome.ticketId === null ? 'refused (conflict)' : `conflict with ticketId ${outcome.ticketId}`;
		case 'crashed':
			return outcome.ticketId === null ? 'crashed (no answer)' : `crashed with ticketId ${outcome.ticketId}`;
		default:
			return `returned ${JSON.stringify(outcome)}`;
	}
}

export function saidTicket(ticket: Ticket): string {
	return `#${ticket.id} ${ticket.tenant}: ${ticket.subject}`;
}

export function saidReceipt(receipt: Receipt): string {
	return `${identity(receipt)} "${receipt.subject}" → #${receipt.ticketId}`;
}
