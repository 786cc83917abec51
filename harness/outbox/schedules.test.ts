import { describe, expect, it } from 'vitest';
import { loadOutboxSchedule, outboxSchedules } from './schedules.ts';
import { brokenCopy } from '../core/broken-copy.ts';

const name = 'relay-crashes-after-sending';
const problemWith = brokenCopy('outbox', name, loadOutboxSchedule);

describe('outbox schedule loading', () => {
	it('loads every outbox schedule, the seven of the issue among them', () => {
		const names = outboxSchedules().map((s) => s.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'one-ticket-one-email',
				'crash-before-commit-sends-nothing',
				'lost-acknowledgment-one-email',
				'relay-crashes-after-sending',
				'provider-down',
				'two-tickets-two-emails',
				'same-event-two-tenants'
			])
		);
	});
	it('the original loads', () => {
		expect(() => problemWith(() => {})).toThrow('loaded without complaint');
	});
	it('names a misspelled field inside a step, and only that step', () => {
		const message = problemWith((s) => {
			s.steps[1].crsh = s.steps[1].crash;
			delete s.steps[1].crash;
		});
		expect(message).toMatch(
			new RegExp(`${name}\\.json: steps\\[1\\]\\.crsh: not a field here \\(misspelled\\?\\)$`)
		);
	});
	it('names a step that is not one of the five', () => {
		const message = problemWith((s) => (s.steps[2].do = 'retry'));
		expect(message).toContain('steps[2].do: must be one of "deliver", "relay", "provider-down"');
	});
	it('names a deliver step without its fault', () => {
		expect(problemWith((s) => delete s.steps[0].fault)).toContain('steps[0].fault: missing');
	});
	it('names a crash point that is not read, send or mark', () => {
		expect(problemWith((s) => (s.steps[1].crash.after = 'commit'))).toContain(
			'steps[1].crash.after: must be one of "read", "send", "mark"'
		);
	});
	it('names a crash after sending that does not say which email', () => {
		expect(problemWith((s) => delete s.steps[1].crash.email)).toContain(
			'steps[1].crash.email: missing: which email of the run'
		);
	});
	it('names a crash after reading that names an email', () => {
		expect(problemWith((s) => (s.steps[1].crash.after = 'read'))).toContain(
			'steps[1].crash.email: a relay that dies after reading has sent no email yet'
		);
	});
	it('names an expectation with the wrong number of outcomes', () => {
		expect(
			problemWith((s) => s.expect['outbox-relay'].outcomes.push(s.expect['outbox-relay'].outcomes[0]))
		).toContain('expect.outbox-relay.outcomes: 2 outcomes for 1 deliveries');
	});
	it('names an inbox that does not match the calls the provider answered "delivered"', () => {
		expect(
			problemWith((s) => s.expect['outbox-relay'].inbox.push(s.expect['outbox-relay'].inbox[0]))
		).toContain(
			'expect.outbox-relay.inbox: the inbox (ticket-confirmation/acme/1, ticket-confirmation/acme/1) must hold exactly'
		);
	});
	it('names an outbox row for send-inside, which keeps none', () => {
		const message = problemWith((s) =>
			s.expect['send-inside'].outbox.push(s.expect['outbox-relay'].outbox[0])
		);
		expect(message).toContain('expect.send-inside.outbox: send-inside keeps no outbox');
	});
	it('names an outbox row in a state that is not pending or sent', () => {
		expect(problemWith((s) => (s.expect['outbox-relay'].outbox[0].state = 'done'))).toContain(
			'expect.outbox-relay.outbox[0].state: must be one of "pending", "sent"'
		);
	});
});
