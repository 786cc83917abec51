// The lesson's plain words for what a handler did: its answers, the tickets and receipts it kept, and which
// delivery of a schedule this is. Every kind that delivers webhooks (the handlers, the race, the outbox, the
// endpoint's webhooks route) and the playground tell them this way.
import type { Fault, Outcome, Receipt, Ticket, Webhook } from './model.ts';
import { sameEvent, saidIdentity, type EventIdentity } from './identity.ts';

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

// How a run's trace says a worker ended: a handler's answer ("answers: created #1"), or a relay that is done.
export const answered = (value: unknown) =>
	value === undefined ? 'is done' : `answers: ${saidOutcome(value as Outcome)}`;

export function saidTicket(ticket: Ticket): string {
	return `#${ticket.id} ${ticket.tenant}: ${ticket.subject}`;
}

// 'acme/helpdesk/evt-42 "Cannot sign in" → #1'
export function saidReceipt(receipt: Receipt): string {
	return `${saidIdentity(receipt)} "${receipt.subject}" → #${receipt.ticketId}`;
}

// How to name each of these events as briefly as tells them apart: by event id alone ("evt-42") when they all
// share one tenant and source, by their whole identity when not.
export function briefly(events: readonly Webhook[]): (event: EventIdentity) => string {
	const [first] = events;
	const oneSender = events.every((e) => e.tenant === first?.tenant && e.source === first.source);
	return (event) => (oneSender ? event.eventId : saidIdentity(event));
}

// A delivery as a schedule lists it: the event, and where its worker dies.
export type ScheduledDelivery = { event: Webhook; fault: Fault };

// The deliveries before this one that are the same event, by the harness's own rule.
export function earlierDeliveries<D extends ScheduledDelivery>(deliveries: readonly D[], index: number): D[] {
	const { event } = deliveries[index]!;
	return deliveries.slice(0, index).filter((d) => sameEvent(d.event, event));
}

// "delivery 2 (acme/helpdesk/evt-42 again, after a lost acknowledgment)"
export function describeDelivery(
	schedule: { deliveries: readonly ScheduledDelivery[] },
	index: number
): string {
	const { event, fault } = schedule.deliveries[index]!;
	const earlier = earlierDeliveries(schedule.deliveries, index);
	const notes = [earlier.length ? `${saidIdentity(event)} again` : saidIdentity(event)];
	const last = earlier.at(-1);
	if (last?.fault === 'after-commit') notes.push('after a lost acknowledgment');
	if (last?.fault === 'before-commit') notes.push('after a crash before the commit');
	if (earlier.length && earlier[0]!.event.subject !== event.subject)
		notes.push(`now saying "${event.subject}"`);
	if (fault === 'before-commit') notes.push('the worker dies before its commit');
	if (fault === 'after-commit') notes.push('the worker dies after its commit, before answering');
	return `delivery ${index + 1} (${notes.join(', ')})`;
}

// "1 ticket", "2 tickets": the noun agrees with its number.
export const counted = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;

// "the tickets differ", "the outbox differs": the parts of a state that differ, with a verb that agrees.
export function theyDiffer(parts: readonly string[]): string {
	const one = parts.length === 1 && !parts[0]!.endsWith('s');
	return `the ${parts.join(' and ')} ${one ? 'differs' : 'differ'}`;
}
