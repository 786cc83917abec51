// The two handlers side by side, as the lesson draws them: each side's tickets and receipts after a delivery.
import type { Delivery, HandlerName } from '#harness/handler/schedules.ts';
import type { Database, Ticket, Webhook } from '#harness/core/model.ts';
import { sameEvent } from '#harness/core/identity.ts';
import { saidOutcome } from '#harness/core/words.ts';
import { h } from './dom.ts';
import { saidReceiptShort } from './lesson-words.ts';
import type { SideRun } from './protocol.ts';

export const sideTitles: Record<HandlerName, string> = {
	'create-every-time': 'Create every time',
	'receipt-in-commit': 'Receipt in the same commit'
};
const exercise: Record<HandlerName, string> = { 'create-every-time': '01', 'receipt-in-commit': '02' };

// A ticket is a duplicate when an earlier one was made for the same event with the same subject: the same
// request, handled twice. Each ticket belongs to the delivery after which it first appears.
export function duplicates(deliveries: Delivery[], dbs: Database[]): Set<number> {
	const seen: { event: Webhook; subject: string }[] = [];
	const marked = new Set<number>();
	dbs.forEach((db, i) => {
		const before = new Set((dbs[i - 1]?.tickets ?? []).map((t) => t.id));
		const event = deliveries[i]?.event;
		if (!event) return;
		for (const ticket of db.tickets.filter((t) => !before.has(t.id))) {
			const again = seen.some((s) => sameEvent(s.event, event) && s.subject === ticket.subject);
			if (again) marked.add(ticket.id);
			else seen.push({ event, subject: ticket.subject });
		}
	});
	return marked;
}

function ticketItem(ticket: Ticket, duplicate: boolean) {
	return h(
		'li',
		{ class: duplicate ? 'ticket duplicate' : 'ticket', 'data-ticket': ticket.id },
		h('span', { class: 'id' }, `#${ticket.id}`),
		' ',
		h('span', { class: 'subject' }, ticket.subject),
		ticket.tenant === 'acme' ? null : h('span', { class: 'tenant' }, ` (${ticket.tenant})`),
		duplicate ? h('span', { class: 'mark' }, ' duplicate') : null
	);
}

// Which code this side runs: the learner's, or the solution's while the learner's is a stub.
export function sourceLabel(side: Pick<SideRun, 'shown' | 'file' | 'notWritten'>, ran = true) {
	if (!ran) return h('p', { class: 'source' }, `${side.file}: runs at the first delivery`);
	if (side.shown === 'solution')
		return h(
			'p',
			{ class: 'source stub', 'data-source': 'solution', title: side.notWritten ?? '' },
			`${side.file}: not written yet, showing the solution`
		);
	return h('p', { class: 'source', 'data-source': side.shown }, `${side.file}: your code`);
}

// One side after `upto` deliveries (0: nothing delivered yet).
export function sidePanel(side: SideRun, deliveries: Delivery[], upto: number) {
	const dbs = side.steps.map((step) => step.db);
	const db = dbs[upto - 1] ?? { tickets: [], receipts: [] };
	const marked = duplicates(deliveries, dbs.slice(0, upto));
	const step = side.steps[upto - 1];
	const keepsNone = side.name === 'create-every-time';
	return h(
		'section',
		{ class: 'side', 'data-side': side.name, 'aria-label': sideTitles[side.name] },
		h('h4', {}, `${exercise[side.name]} · ${sideTitles[side.name]}`),
		sourceLabel(side, side.steps.length > 0 || !!side.broke || !!side.notWritten),
		h(
			'p',
			{ class: 'answer', 'data-answer': '' },
			upto === 0
				? 'Nothing delivered yet'
				: step
					? `Delivery ${upto}: ${saidOutcome(step.outcome)}`
					: `Delivery ${upto}: no answer`
		),
		h('h5', {}, 'Tickets'),
		db.tickets.length
			? h(
					'ol',
					{ class: 'tickets', 'data-list': 'tickets' },
					db.tickets.map((t) => ticketItem(t, marked.has(t.id)))
				)
			: h('p', { class: 'empty', 'data-list': 'tickets' }, 'No tickets'),
		h('h5', {}, 'Receipts'),
		db.receipts.length
			? h(
					'ol',
					{ class: 'receipts', 'data-list': 'receipts' },
					db.receipts.map((r) => h('li', { class: 'receipt' }, saidReceiptShort(r)))
				)
			: h(
					'p',
					{ class: 'empty', 'data-list': 'receipts' },
					keepsNone ? 'Keeps no receipts' : 'No receipts yet'
				),
		side.broke ? h('pre', { class: 'broke', role: 'alert', 'data-broke': '' }, side.broke) : null
	);
}

// What a side's code said against what was expected, in the tests' own words.
export function disagreementPanel(side: SideRun, against: string) {
	if (!side.disagreement) return null;
	return h(
		'div',
		{ class: 'disagreement', 'data-disagreement': side.name },
		h('p', {}, `${sideTitles[side.name]}: your handler disagrees with ${against}. The test says:`),
		h('pre', {}, side.disagreement)
	);
}
