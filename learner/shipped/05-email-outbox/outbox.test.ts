import { describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { assertOutboxProperty, propertyTime } from '#harness/outbox/property.ts';
import { exploreOutboxCrashPoints } from '#harness/outbox/crash-points.ts';
import { brokenRelayRun } from '#harness/outbox/relay-faults.ts';
import type { Webhook } from '#harness/core/model.ts';
import { ScheduleMismatch } from '#harness/core/mismatch.ts';
import { OutboxWorld, playOutboxSchedules, type Sender } from '#harness/outbox/play.ts';
import { exploreSameEvent, tellRun } from '#harness/race/explore.ts';
import { emailKey, handleWithOutbox, relay } from './outbox.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
const outboxRelay = (): Sender => ({
	name: 'outbox-relay',
	handle: (db, event) => handleWithOutbox(db, event),
	relay
});

describe(heading('05'), () => {
	describe('emailKey: the email is named by its ticket, not by the delivery', () => {
		it('ticket 1 of acme, confirmed: ticket-confirmation/acme/1', () => {
			expect(emailKey('acme', 1, 'ticket-confirmation')).toBe('ticket-confirmation/acme/1');
		});
		it('the same ticket number at two tenants: two keys', () => {
			expect(emailKey('acme', 1, 'ticket-confirmation')).not.toBe(
				emailKey('globex', 1, 'ticket-confirmation')
			);
		});
		it('two tickets of one tenant: two keys', () => {
			expect(emailKey('acme', 1, 'ticket-confirmation')).not.toBe(emailKey('acme', 2, 'ticket-confirmation'));
		});
		it('the same ticket asked twice: the same key, so the provider can recognise the repeat', () => {
			expect(emailKey('acme', 7, 'ticket-confirmation')).toBe(emailKey('acme', 7, 'ticket-confirmation'));
		});
		it('a tenant with a "/" in its name still gets a key of its own', () => {
			const keys = [
				['a/1', 2],
				['a', 12],
				['a/12', 3],
				['a/1/2', 3]
			].map(([tenant, id]) => emailKey(tenant as string, id as number, 'ticket-confirmation'));
			expect(new Set(keys).size, keys.join(', ')).toBe(keys.length);
		});
	});

	describe('handleWithOutbox and relay', () => {
		playOutboxSchedules(outboxRelay);
		it('the ticket does not wait for the mail provider: while it is down, the ticket and its row still commit', async () => {
			const world = new OutboxWorld();
			world.provider.goDown();
			const ending = await world.deliver('delivery 1', outboxRelay(), evt42);
			expect(ending, 'handleWithOutbox never touches the provider').toEqual({
				kind: 'answered',
				value: { kind: 'created', ticketId: 1 }
			});
			expect(world.db.committed().outbox.map((row) => `${row.key} ${row.state}`)).toEqual([
				'ticket-confirmation/acme/1 pending'
			]);
		});
		it(
			"two workers deliver evt-42 at once: exercise 03's fix still holds, so one creates #1 and the other gets it back",
			{ timeout: 60_000 },
			async () => {
				const explored = await exploreSameEvent(handleWithOutbox, 2);
				const first = explored.failures[0];
				if (first)
					throw new ScheduleMismatch(
						`Two workers on evt-42: ${explored.failed} of ${explored.complete} interleavings break "one ticket, one receipt, one worker created #1 and the other replayed #1". The first:\n${first.problem}\n\n${tellRun(first.run)}`
					);
			}
		);
		it(
			'property: deliveries, relays and outages overlapping at random, crashing anywhere, then one clean relay run: every committed ticket has exactly one email, and no email is about a ticket that does not exist',
			propertyTime,
			async () => {
				await assertOutboxProperty(outboxRelay, { numRuns: 150 });
			}
		);
		exploreOutboxCrashPoints(outboxRelay);
		it(
			'a provider that fails one call at a time (down, a reused key refused, a bug), every way over three rows: each row sent once, marked only when taken, a refusal skipped, a bug thrown',
			propertyTime,
			async () => {
				const problem = await brokenRelayRun(relay);
				if (problem) throw new ScheduleMismatch(problem);
			}
		);
	});
});
