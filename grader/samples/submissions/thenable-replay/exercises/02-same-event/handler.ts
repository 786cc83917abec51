// @ts-nocheck
// Hostile: replay answers a thenable, not an outcome (the workbook's tests fail it: a thenable is not equal to
// { kind: 'replayed', … }), whose then hands over the right outcome, so a grader that awaits what it gets
// sees right answers.
import { copyDatabase, crashed } from '#harness/core/model.ts';

const same = (a, b) => a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
export function sameEvent(a, b) {
	return same(a, b);
}

function outcomeOf(receipt, event) {
	if (receipt.subject !== event.subject) return { kind: 'conflict', ticketId: null };
	return { kind: 'replayed', ticketId: receipt.ticketId };
}
export function replay(receipt, event) {
	return { then: (settle) => settle(outcomeOf(receipt, event)) };
}

export class ReceiptHandler {
	db = { tickets: [], receipts: [] };
	handle(event, fault = 'none') {
		const seen = this.db.receipts.find((receipt) => same(receipt, event));
		const staged = copyDatabase(this.db);
		let outcome = seen ? outcomeOf(seen, event) : null;
		if (!outcome) {
			const ticketId = staged.tickets.length + 1;
			staged.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
			staged.receipts.push({ ...event, ticketId });
			outcome = { kind: 'created', ticketId };
		}
		if (fault === 'before-commit') return crashed;
		this.db = staged;
		if (fault === 'after-commit') return crashed;
		return outcome;
	}
	snapshot() {
		return copyDatabase(this.db);
	}
}
