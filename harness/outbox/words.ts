// The lesson's plain words for emails, outbox rows, the provider's answers and the steps of an outbox schedule.
import type { Call } from './mail-provider.ts';
import type { Email } from './model.ts';
import type { ExpectedRow, OutboxSchedule, RelayCrash, Step } from './schedules.ts';
import { describeDelivery } from '../core/words.ts';

// "#1 to acme: Cannot sign in [ticket-confirmation/acme/1]"
export function saidEmail(email: Email): string {
	return `#${email.ticketId} to ${email.to}: ${email.subject} [${email.key}]`;
}

// "#1 to acme: Cannot sign in [ticket-confirmation/acme/1] sent"
export function saidRow(row: ExpectedRow): string {
	const tenant = row.tenant === row.to ? '' : ` (tenant ${row.tenant})`;
	return `#${row.ticketId} to ${row.to}${tenant}: ${row.subject} [${row.key}] ${row.state}`;
}

// "ticket-confirmation/acme/1 delivered"
export function saidCall(call: Pick<Call, 'key' | 'answer'>): string {
	return `${call.key} ${call.answer}`;
}

export function saidCrash(crash: RelayCrash): string {
	switch (crash.after) {
		case 'read':
			return 'the relay dies after reading the pending rows, before sending anything';
		case 'send':
			return `the relay dies right after the provider accepted its email ${crash.email}, before marking it sent`;
		case 'mark':
			return `the relay dies right after marking its email ${crash.email} sent`;
	}
}

// Deliveries and relay runs are counted separately: "delivery 2 (…)", "relay run 1 (…)".
export function describeStep(schedule: OutboxSchedule, index: number): string {
	const step = schedule.steps[index]!;
	const before = schedule.steps.slice(0, index);
	if (step.do === 'deliver') {
		const deliveries = before.filter((s) => s.do === 'deliver').concat(step);
		return describeDelivery({ deliveries }, deliveries.length - 1);
	}
	if (step.do === 'relay') {
		const number = before.filter((s) => s.do === 'relay').length + 1;
		const notes = [];
		if (providerDownAt(before)) notes.push('while the provider is down');
		if (step.crash) notes.push(saidCrash(step.crash));
		return `relay run ${number}${notes.length ? ` (${notes.join(', ')})` : ''}`;
	}
	if (step.do === 'wait') return `${step.seconds} seconds pass`;
	return step.do === 'provider-down' ? 'the provider goes down' : 'the provider comes back';
}

function providerDownAt(steps: Step[]): boolean {
	const last = steps.filter((s) => s.do === 'provider-down' || s.do === 'provider-up').at(-1);
	return last?.do === 'provider-down';
}

// The steps as one line each, numbered, so a failure shows the whole schedule.
export function tellSteps(schedule: OutboxSchedule): string {
	return schedule.steps.map((_, i) => `  ${i + 1}. ${describeStep(schedule, i)}`).join('\n');
}
