// Exercise 05's checks: emailKey, the outbox schedules, rounds of deliveries, relays, outages and crashes, and
// one relay run against a provider failing call by call.
// Interleavings depend on the code's own operations, so rounds are judged on what must hold (exactly one email
// per committed ticket, none about a ticket that does not exist), which the reference passes too.
import fc from 'fast-check';
import { rounds } from '#harness/outbox/property.ts';
import { judgeRounds, type Round, type RoundsPlayed } from '#harness/outbox/rounds.ts';
import { outboxSchedules, type OutboxSchedule } from '#harness/outbox/schedules.ts';
import { judgeOutbox, type Played } from '#harness/outbox/play.ts';
import { judgeRelayRun, relayFaultPlans } from '#harness/outbox/relay-faults.ts';
import { heldOut, said, type Check, type Probe } from '../trusted/probe.ts';

type Keys = { keys: [string, number, string][]; want?: string };

// Equal arguments give equal keys, different arguments different keys; `want` pins the first key's words.
function judgeKeys(input: Keys, got: unknown): string | null {
	if (!Array.isArray(got) || got.length !== input.keys.length || !got.every((key) => typeof key === 'string'))
		return `emailKey returned ${said(got)} for ${said(input.keys)}: one string per call was expected`;
	if (input.want !== undefined && got[0] !== input.want)
		return `emailKey(${input.keys[0]!.map(said).join(', ')}): expected ${said(input.want)}, your code ${said(got[0])}`;
	for (let a = 0; a < got.length; a++)
		for (let b = a + 1; b < got.length; b++) {
			const same = said(input.keys[a]) === said(input.keys[b]);
			if (same !== (got[a] === got[b]))
				return `emailKey(${input.keys[a]!.map(said).join(', ')}) is ${said(got[a])} and emailKey(${input.keys[b]!.map(said).join(', ')}) is ${said(got[b])}: ${same ? 'the same email must get the same key' : 'two emails must never share a key'}`;
		}
	return null;
}

const keyCheck = (name: string, input: Keys): Check => ({
	name: `emailKey › ${name}`,
	heldOut: false,
	observer: 'email-keys',
	cases: [input],
	judge: judgeKeys
});
const kind = 'ticket-confirmation';

const randomKeys = fc
	.array(
		fc.tuple(fc.constantFrom('acme', 'globex', 'a', 'a/1', 'a/12', '1'), fc.integer({ min: 1, max: 12 })),
		{
			minLength: 2,
			maxLength: 6
		}
	)
	.map((pairs) => ({ keys: pairs.map(([tenant, id]) => [tenant, id, kind] as [string, number, string]) }));

const roundsCheck = {
	observer: 'rounds',
	judge: (plan: Round[], seen: RoundsPlayed) => judgeRounds(plan, seen)
};

export const probe: Probe = (settings) => [
	keyCheck('ticket 1 of acme, confirmed: ticket-confirmation/acme/1', {
		keys: [['acme', 1, kind]],
		want: 'ticket-confirmation/acme/1'
	}),
	keyCheck('the same ticket number at two tenants: two keys', {
		keys: [
			['acme', 1, kind],
			['globex', 1, kind]
		]
	}),
	keyCheck('two tickets of one tenant: two keys', {
		keys: [
			['acme', 1, kind],
			['acme', 2, kind]
		]
	}),
	keyCheck('the same ticket asked twice: the same key', {
		keys: [
			['acme', 7, kind],
			['acme', 7, kind]
		]
	}),
	keyCheck('a tenant with a "/" in its name still gets a key of its own', {
		keys: [
			['a/1', 2, kind],
			['a', 12, kind],
			['a/12', 3, kind],
			['a/1/2', 3, kind]
		]
	}),
	...outboxSchedules().map((schedule) => ({
		name: `the schedules, as outbox-relay › ${schedule.title}`,
		heldOut: false,
		observer: 'schedule',
		cases: [schedule],
		judge: (input: OutboxSchedule, played: Played) => judgeOutbox(input, 'outbox-relay', played)
	})),
	{
		name: 'property: deliveries, relays and outages overlapping, crashing anywhere, then one clean relay run (the same rounds every time)',
		heldOut: false,
		cases: fc.sample(rounds, { seed: 5, numRuns: 40 }),
		...roundsCheck
	},
	{
		name: 'a provider that fails one call at a time (down, a reused key refused, a bug), every way over three rows',
		heldOut: false,
		observer: 'relay-faults',
		cases: relayFaultPlans(),
		judge: judgeRelayRun
	},
	...heldOut(settings, 'email keys', randomKeys, () => ({ observer: 'email-keys', judge: judgeKeys })),
	...heldOut(settings, 'outbox rounds', rounds, () => roundsCheck)
];
