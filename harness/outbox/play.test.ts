// The outbox player's messages, as a learner reads them, and the player itself on the anti-pattern it pins.
import { describe, expect, it } from 'vitest';
import { sendInside } from '../../exercises/05-email-outbox/send-inside.ts';
import type { Connection } from '../database/database.ts';
import { readFileSync } from 'node:fs';
import { relay } from '../../solutions/05-email-outbox/outbox.ts';
import { KeyReused, ProviderDown, type Mail } from './mail-provider.ts';
import { outboxSchedules } from './schedules.ts';
import { describeStep } from './words.ts';
import { inboxProblems, judgeOutbox, playOutbox, type Sender } from './play.ts';
import { todo } from '../core/todo.ts';

const schedule = (name: string) => outboxSchedules().find((s) => s.name === name)!;
const inside: Sender = { name: 'send-inside', handle: sendInside, relay: null };

// Saves the row with the ticket, as it should, but each relay run makes up a new key: a retry looks new.
let attempt = 0;
const freshKeyEachRun: Sender = {
	name: 'outbox-relay',
	async handle(conn: Connection, event) {
		await conn.begin();
		const ticketId = await conn.saveTicket({ tenant: event.tenant, subject: event.subject });
		await conn.saveReceipt({ ...event, ticketId });
		const key = `ticket-confirmation/${event.tenant}/${ticketId}`;
		await conn.saveOutbox({ key, tenant: event.tenant, ticketId, to: event.tenant, subject: event.subject });
		await conn.commit();
		return { kind: 'created', ticketId };
	},
	async relay(conn: Connection, mail: Mail) {
		attempt++;
		for (const row of await conn.pendingOutbox()) {
			await mail.send({
				key: `attempt-${attempt}`,
				to: row.to,
				ticketId: row.ticketId,
				subject: row.subject
			});
			await conn.markSent(row.id);
		}
	}
};

describe('playing outbox schedules', () => {
	it('send-inside meets its own column of every schedule', async () => {
		for (const s of outboxSchedules())
			expect(judgeOutbox(s, 'send-inside', await playOutbox(s, inside))).toBeNull();
	});

	it('held to the outbox column, send-inside hears about the email for a ticket that does not exist', async () => {
		const s = schedule('crash-before-commit-sends-nothing');
		const message = judgeOutbox(s, 'outbox-relay', await playOutbox(s, inside))!;
		expect(message).toContain(
			'Schedule "crash-before-commit-sends-nothing" (A crash before the commit sends nothing)'
		);
		expect(message).toContain('  1. delivery 1 (acme/helpdesk/evt-42, the worker dies before its commit)');
		expect(message).toContain('The inbox is wrong:');
		expect(message).toContain(
			'1 email about ticket #1, which does not exist:\n      #1 to acme: Cannot sign in [ticket-confirmation/acme/1]'
		);
		expect(message).toMatch(
			/≠ inbox +#2 to acme: Cannot sign in \[ticket-confirmation\/acme\/2\]\n +your code +#1 to acme/
		);
		expect(message).toContain(
			'delivery 1 sends the email #1 to acme: Cannot sign in [ticket-confirmation/acme/1]: the provider delivered.'
		);
	});

	it('a new key on every retry: the message says which ticket got two emails', async () => {
		const s = schedule('relay-crashes-after-sending');
		const message = judgeOutbox(s, 'outbox-relay', await playOutbox(s, freshKeyEachRun))!;
		expect(message).toContain('doubled: ticket #1 got 2 emails where 1 was expected:');
		expect(message).toContain('#1 to acme: Cannot sign in [attempt-');
		expect(message).toContain(
			'relay run 1 (the relay dies right after the provider accepted its email 1, before marking it sent)'
		);
	});

	it("a relay that lets the provider's refusal escape is told to leave the row pending instead", async () => {
		const s = schedule('provider-down-row-stays-pending');
		const down = new ProviderDown('the provider is down');
		const throwing: Sender = { ...freshKeyEachRun, relay: async () => Promise.reject(down) };
		await expect(playOutbox(s, throwing)).rejects.toThrow(
			/step 3, relay run 1 \(while the provider is down\), of schedule "provider-down-row-stays-pending": your relay threw ProviderDown: the provider is down\nA relay does not throw the provider's refusals/
		);
	});

	it('a relay that throws an error of its own is not told the provider refused', async () => {
		const s = schedule('provider-down-row-stays-pending');
		const throwing: Sender = { ...freshKeyEachRun, relay: async () => Promise.reject(new Error('boom')) };
		const thrown = await playOutbox(s, throwing).then(
			() => '',
			(error: Error) => error.message
		);
		expect(thrown).toContain('your relay threw Error: boom');
		expect(thrown).not.toContain('A relay does not throw');
	});

	it("the solution's relay, as 05's README says: the provider's refusals wait, any other error is thrown on", async () => {
		const row = { id: 1, key: 'k', tenant: 'acme', ticketId: 1, to: 'acme', subject: 'x', state: 'pending' };
		const marked: number[] = [];
		const db = {
			pendingOutbox: async () => [row],
			markSent: async (id: number) => void marked.push(id)
		} as unknown as Connection;
		const failing = (error: Error): Mail => ({ send: async () => Promise.reject(error) });
		await expect(relay(db, failing(new ProviderDown('down')))).resolves.toBeUndefined();
		await expect(relay(db, failing(new KeyReused('reused')))).resolves.toBeUndefined();
		await expect(relay(db, failing(new TypeError('a bug of its own')))).rejects.toThrow('a bug of its own');
		expect(marked, 'no row marked sent').toEqual([]);
		const readme = readFileSync('exercises/05-email-outbox/README.md', 'utf8').replace(/\s+/g, ' ');
		expect(readme).toContain("A relay does not throw the provider's refusals");
		expect(readme).toContain('Any other error it throws on');
	});

	it("a stub stops the schedule with the stub's own message, and says where", async () => {
		const s = schedule('one-ticket-one-email');
		const stub: Sender = {
			...freshKeyEachRun,
			relay: async () => todo('relay', '05-email-outbox/outbox.ts')
		};
		await expect(playOutbox(s, stub)).rejects.toThrow(
			/relay is not written yet\.[^]*\(stopped at step 2, relay run 1, of schedule "one-ticket-one-email"\)/
		);
	});

	it('steps read as the lesson tells them', () => {
		const s = schedule('relay-returns-after-the-window');
		expect(s.steps.map((_, i) => describeStep(s, i))).toEqual([
			'delivery 1 (acme/helpdesk/evt-42)',
			'relay run 1 (the relay dies right after the provider accepted its email 1, before marking it sent)',
			'90000 seconds pass',
			'relay run 2'
		]);
	});
});

describe('inboxProblems', () => {
	const email = (ticketId: number, key = `ticket-confirmation/acme/${ticketId}`) => ({
		key,
		to: 'acme',
		ticketId,
		subject: 'Cannot sign in'
	});
	it('nothing to say when the inbox is as expected', () => {
		expect(inboxProblems([email(1), email(2)], [email(1), email(2)], [1, 2])).toEqual([]);
	});
	it('names a missing email', () => {
		expect(inboxProblems([email(1)], [], [1])).toEqual([
			'missing: the email #1 to acme: Cannot sign in [ticket-confirmation/acme/1]'
		]);
	});
	it('names an email with the wrong key, expected against delivered', () => {
		expect(inboxProblems([email(1)], [email(1, 'evt-42')], [1])).toEqual([
			'ticket #1 got another email than expected:\n    expected\n      #1 to acme: Cannot sign in [ticket-confirmation/acme/1]\n    delivered\n      #1 to acme: Cannot sign in [evt-42]'
		]);
	});
});
