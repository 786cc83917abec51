// The lesson's plain words for changes to a ticket, the answers they get, and what is stored.
import type { ChangeDelivery } from './schedules.ts';
import type { Answer, Change, ChangeReceipt, StatusTicket } from './model.ts';

// "chg-3: close #1, decided on version 1" or "chg-1: comment on #1 "Is there any news?""
export function saidChange(change: Change): string {
	if (change.kind === 'add-comment')
		return `${change.changeId}: comment on #${change.ticketId} "${change.text}"`;
	const verb = change.status === 'closed' ? 'close' : 'reopen';
	return `${change.changeId}: ${verb} #${change.ticketId}, decided on version ${change.decidedOn}`;
}

export function saidAnswer(answer: Answer | undefined): string {
	if (answer === undefined || answer === null || typeof answer !== 'object')
		return `returned ${String(answer)}`;
	switch (answer.kind) {
		case 'set':
			return `set: ${answer.status} at version ${answer.version}`;
		case 'stale':
			return `refused as stale: the ticket is at version ${answer.version}`;
		case 'commented':
			return `commented: comment ${answer.comment}`;
		case 'crashed':
			return 'crashed (no answer)';
		default:
			return `returned ${JSON.stringify(answer)}`;
	}
}

// "#1 closed, version 2 (made by chg-1)", then one line per comment.
export function saidTicket(ticket: StatusTicket): string[] {
	const madeBy = ticket.lastChange === null ? '' : ` (made by ${ticket.lastChange})`;
	const comments = (ticket.comments ?? []).map((text, i) => `  comment ${i + 1}: ${text}`);
	return [`#${ticket.id} ${ticket.status}, version ${ticket.version}${madeBy}`, ...comments];
}

export function saidReceipt(receipt: ChangeReceipt): string {
	return `${receipt.changeId} → ${saidAnswer(receipt.answer)}`;
}

// "delivery 3 (chg-1: close #1, decided on version 1, again, after a lost acknowledgment)"
export function describeChangeDelivery(deliveries: ChangeDelivery[], index: number): string {
	const { change, fault } = deliveries[index]!;
	const earlier = deliveries.slice(0, index).filter((d) => d.change.changeId === change.changeId);
	const notes = [saidChange(change)];
	const last = earlier.at(-1);
	if (last) notes.push('again');
	if (last?.fault === 'after-commit') notes.push('after a lost acknowledgment');
	if (last?.fault === 'before-commit') notes.push('after a crash before the commit');
	if (fault === 'before-commit') notes.push('the worker dies before its commit');
	if (fault === 'after-commit') notes.push('the worker dies after its commit, before answering');
	return `delivery ${index + 1} (${notes.join(', ')})`;
}

const dies = {
	none: '',
	'before-commit': ', dies before its commit',
	'after-commit': ', dies after its commit'
};

// "1. chg-1: close #1, decided on version 1, dies after its commit; 2. chg-1: close #1, …"
export function saidDeliveries(deliveries: readonly ChangeDelivery[]): string {
	return deliveries.map((d, i) => `${i + 1}. ${saidChange(d.change)}${dies[d.fault]}`).join('; ');
}
