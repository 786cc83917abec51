import { describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { assertOutboxProperty, propertyTime } from '#harness/outbox/property.ts';
import { exploreOutboxCrashPoints } from '#harness/outbox/crash-points.ts';
import { brokenRelayRun } from '#harness/outbox/relay-faults.ts';
import type { Webhook } from '#harness/core/model.ts';
import { ScheduleMismatch } from '#harness/core/mismatch.ts';
import { OutboxWorld, playOutboxSchedules, type Sender } from '#harness/outbox/play.ts';
import { exploreSameEvent, tellRun } from '#harness/race/explore.ts';
import { focusedCase } from '#harness/core/cases.ts';
import { emailKey, handleWithOutbox, relay } from './outbox.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
const outboxRelay = (): Sender => ({
	name: 'outbox-relay',
	handle: (db, event) => handleWithOutbox(db, event),
	relay
});

describe(heading('05'), () => {
	describe('emailKey: the email is named by its ticket, not by the delivery', () => {
		const key = (tenant: string, id: number) => emailKey(tenant, id, 'ticket-confirmation');
		const call = (tenant: string, id: number) =>
			`emailKey(${JSON.stringify(tenant)}, ${id}, "ticket-confirmation")`;
		const twoKeys = (a: string, b: string) => (a === b ? `one key for both: ${a}` : 'two keys');
		focusedCase('ticket 1 of acme, confirmed: ticket-confirmation/acme/1', String, (check) => {
			check(
				call('acme', 1),
				key('acme', 1),
				'ticket-confirmation/acme/1',
				'the key is the kind of email, the tenant and the ticket id, in that order'
			);
		});
		focusedCase('the same ticket number at two tenants: two keys', String, (check) => {
			check(
				`${call('acme', 1)} and ${call('globex', 1)}`,
				twoKeys(key('acme', 1), key('globex', 1)),
				'two keys',
				'every tenant counts its tickets from 1: the key needs the tenant'
			);
		});
		focusedCase('two tickets of one tenant: two keys', String, (check) => {
			check(
				`${call('acme', 1)} and ${call('acme', 2)}`,
				twoKeys(key('acme', 1), key('acme', 2)),
				'two keys',
				'the key needs the ticket id'
			);
		});
		focusedCase(
			'the same ticket asked twice: the same key, so the provider can recognise the repeat',
			String,
			(check) => {
				const [first, again] = [key('acme', 7), key('acme', 7)];
				check(
					`${call('acme', 7)}, twice`,
					again,
					first,
					'a key made of the stored ticket, never of the time or chance, so a resend carries the same key'
				);
			}
		);
		focusedCase('a tenant with a "/" in its name still gets a key of its own', String, (check) => {
			const asked: [string, number][] = [
				['a/1', 2],
				['a', 12],
				['a/12', 3],
				['a/1/2', 3]
			];
			const keys = asked.map(([tenant, id]) => key(tenant, id));
			check(
				`the keys of ${asked.map(([tenant, id]) => `${tenant} #${id}`).join(', ')}`,
				new Set(keys).size === keys.length ? 'four keys' : `fewer: ${keys.join(', ')}`,
				'four keys',
				'only the tenant is free text: keep it where no "/" inside it can move a boundary'
			);
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
