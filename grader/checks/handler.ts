// Handler checks shared by exercises 01 and 02: the shipped handler schedules, snapshot() as a copy, and
// random schedules judged against what the reference handler did on the same deliveries.
import fc from 'fast-check';
import {
	handlerSchedules,
	type Delivery,
	type HandlerName,
	type HandlerSchedule
} from '#harness/handler/schedules.ts';
import { faults, type Webhook } from '#harness/core/model.ts';
import { judgeHandler, type Played } from '#harness/handler/play.ts';
import { saidIdentity } from '#harness/core/identity.ts';
import { canonical, heldOut, said, type Check, type ProbeSettings } from '../trusted/probe.ts';

// A few identities, so deliveries repeat; "a:b"/"c" and "a"/"b:c" read the same when joined with ":".
const identities = [
	['acme', 'helpdesk'],
	['globex', 'helpdesk'],
	['acme', 'billing'],
	['a:b', 'c'],
	['a', 'b:c']
] as const;

export const webhook: fc.Arbitrary<Webhook> = fc
	.record({
		who: fc.constantFrom(...identities),
		eventId: fc.constantFrom('evt-1', 'evt-2', 'evt-42'),
		subject: fc.constantFrom('Cannot sign in', 'Printer on fire', 'Cannot export report')
	})
	.map(({ who, eventId, subject }) => ({ tenant: who[0], source: who[1], eventId, subject }));

// Mostly healthy workers, now and then one that dies before or after its commit.
const fault = fc.oneof({ weight: 3, arbitrary: fc.constant(faults[0]!) }, fc.constantFrom(...faults));
// A repeat of an earlier event is the interesting case, so deliveries pick from a short list of events.
const deliveries = fc
	.array(webhook, { minLength: 1, maxLength: 4 })
	.chain((events) =>
		fc.array(fc.record({ event: fc.constantFrom(...events), fault }), { minLength: 1, maxLength: 8 })
	);

const dies = {
	none: '',
	'before-commit': ', dies before its commit',
	'after-commit': ', dies after its commit'
};
const told = (random: Delivery[]) =>
	random.map((d, i) => `${i + 1}. ${saidIdentity(d.event)} "${d.event.subject}"${dies[d.fault]}`).join('; ');

// What the sandbox is handed for a random schedule: the deliveries, never an expectation.
const randomSchedule = (random: Delivery[]) => ({
	name: 'held-out',
	title: 'A random schedule',
	story: `Deliveries the shipped schedules do not have: ${told(random)}. Expected is what the reference solution did.`,
	deliveries: random
});

export function givenSchedules(name: HandlerName, observer = 'schedule'): Check[] {
	return handlerSchedules().map((schedule) => ({
		name: `the schedules, as ${name} › ${schedule.title}`,
		heldOut: false,
		observer,
		cases: [schedule],
		judge: (input: HandlerSchedule, played: Played) => judgeHandler(input, name, played)
	}));
}

export const snapshotIsACopy: Check = {
	name: 'snapshot() hands out a copy: changing it leaves the store alone',
	heldOut: false,
	observer: 'snapshot-copy',
	cases: [null],
	judge: (_input, { before, after }: { before: unknown; after: unknown }) =>
		canonical(after) === canonical(before)
			? null
			: `Changing what snapshot() returned changed the handler's store.\nbefore: ${said(before)}\nafter:  ${said(after)}\nReturn a copy (copyDatabase from #harness/core/model.ts), not the live arrays.`
};

export function heldOutSchedules(settings: ProbeSettings, name: HandlerName): Check[] {
	return heldOut(settings, `schedules, as ${name}`, deliveries.map(randomSchedule), () => ({
		observer: 'schedule',
		judge: (input: Omit<HandlerSchedule, 'expect'>, played: Played, expected: Played) => {
			const expect = { [name]: { outcomes: expected.outcomes, ...expected.db } };
			return judgeHandler({ ...input, expect } as HandlerSchedule, name, played);
		}
	}));
}
