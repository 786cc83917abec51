// Held-out handler schedules: random deliveries, played against the learner's handler and the reference's.
import fc from 'fast-check';
import { describe } from 'vitest';
import type { Delivery, HandlerName, HandlerSchedule } from '#shared/handler-schedules.ts';
import { faults, type Handler, type Webhook } from '#shared/model.ts';
import { judgeHandler, playHandler } from '#shared/play-handler.ts';
import { identity } from '#shared/words.ts';
import { heldOutChecks } from './seed.ts';

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
	random.map((d, i) => `${i + 1}. ${identity(d.event)} "${d.event.subject}"${dies[d.fault]}`).join('; ');

// The reference plays the random deliveries first; what it did becomes the schedule's expectation.
export function heldOutHandler(name: HandlerName, learner: () => Handler, reference: () => Handler): void {
	describe(`held-out schedules, as ${name}`, () => {
		heldOutChecks('schedules', deliveries, (random) => {
			const schedule: HandlerSchedule = {
				name: 'held-out',
				title: 'A random schedule',
				story: `Deliveries the shipped schedules do not have: ${told(random)}. Expected is what the reference solution did.`,
				deliveries: random,
				expect: {} as HandlerSchedule['expect']
			};
			const expected = playHandler(schedule, reference());
			schedule.expect[name] = { outcomes: expected.outcomes, ...expected.db };
			return judgeHandler(schedule, name, playHandler(schedule, learner()));
		});
	});
}
