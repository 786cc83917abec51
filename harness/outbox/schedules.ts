// The outbox schedules: deliveries, relay runs and provider outages, and what each way of sending must leave.
import type { Fault, Outcome, Receipt, Ticket, Webhook } from '../core/model.ts';
import type { Answer } from './mail-provider.ts';
import type { OutboxRow } from '../database/database.ts';
import type { Email } from './model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';

export type SenderName = 'outbox-relay' | 'send-inside';
export const senderNames: readonly SenderName[] = ['outbox-relay', 'send-inside'];

// Where a relay run dies: after reading the pending rows, or around its email number `email` of this run.
export type RelayCrash = { after: 'read' } | { after: 'send' | 'mark'; email: number };

export type Step =
	| { do: 'deliver'; event: Webhook; fault: Fault }
	| { do: 'relay'; crash?: RelayCrash }
	| { do: 'provider-down' }
	| { do: 'provider-up' }
	| { do: 'wait'; seconds: number };

export type ProviderCall = { key: string; answer: Answer };
// A committed outbox row as a schedule expects it: without its id, which only counts rows.
export type ExpectedRow = Omit<OutboxRow, 'id'>;
export type OutboxExpectation = {
	outcomes: Outcome[];
	tickets: Ticket[];
	receipts: Receipt[];
	outbox: ExpectedRow[];
	inbox: Email[];
	calls: ProviderCall[];
};
export type OutboxSchedule = {
	name: string;
	title: string;
	story: string;
	steps: Step[];
	expect: Record<SenderName, OutboxExpectation>;
};

const check: Check<OutboxSchedule> = (schedule, fail) => {
	schedule.steps.forEach((step, i) => {
		if (step.do !== 'relay' || !step.crash) return;
		const crash = step.crash as { after: string; email?: number };
		if (crash.after === 'read' && crash.email !== undefined)
			fail(
				`steps[${i}].crash.email`,
				'a relay that dies after reading has sent no email yet: leave email out'
			);
		if (crash.after !== 'read' && crash.email === undefined)
			fail(
				`steps[${i}].crash.email`,
				`missing: which email of the run does the relay die after (1 is the first)?`
			);
	});
	const deliveries = schedule.steps.filter((step) => step.do === 'deliver').length;
	for (const sender of senderNames) {
		const expected = schedule.expect[sender];
		if (expected.outcomes.length !== deliveries)
			fail(`expect.${sender}.outcomes`, `${expected.outcomes.length} outcomes for ${deliveries} deliveries`);
		expected.outcomes.forEach((outcome, i) => {
			const needsTicket = outcome.kind === 'created' || outcome.kind === 'replayed';
			if (needsTicket !== (outcome.ticketId !== null)) {
				const should = needsTicket ? 'needs a ticketId' : 'must have ticketId null';
				fail(`expect.${sender}.outcomes[${i}].ticketId`, `a ${outcome.kind} outcome ${should}`);
			}
		});
		const delivered = expected.calls.filter((call) => call.answer === 'delivered').map((call) => call.key);
		const inbox = expected.inbox.map((email) => email.key);
		if (delivered.join('\n') !== inbox.join('\n'))
			fail(
				`expect.${sender}.inbox`,
				`the inbox (${inbox.join(', ') || 'empty'}) must hold exactly the calls answered "delivered" (${delivered.join(', ') || 'none'})`
			);
	}
	if (schedule.expect['send-inside'].outbox.length)
		fail('expect.send-inside.outbox', 'send-inside keeps no outbox: expect []');
};

export function outboxSchedules() {
	return loadSchedules<OutboxSchedule>('outbox', check);
}

export function loadOutboxSchedule(path: string) {
	return loadSchedule<OutboxSchedule>('outbox', path, check);
}
