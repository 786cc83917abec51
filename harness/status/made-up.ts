// Made-up status schedules: random changes to three tickets (closes, reopens, comments, some decided on an older
// version, some sent again, late or after a lost acknowledgment, some whose worker dies), each with the
// versioned expectation the reference model (contract.ts) gives. 07's tests and the grader's held-out checks
// draw from the same `madeUpSchedules`.
//
//   fc.sample(madeUpSchedules, 1)[0]  // a schedule named "made-up", its story in the schedules' words
//
// A step is drawn before it is made concrete, so fast-check shrinks steps: fewer, and simpler ones (no
// repeat, no fault, the first ticket), and the schedule made from the shrunk steps is still a real one.
import fc from 'fast-check';
import { faults } from '../core/model.ts';
import { expectedByContract, StatusContract } from './contract.ts';
import type { Change, StartTicket } from './model.ts';
import type { ChangeDelivery, JudgedSchedule } from './schedules.ts';
import { saidDeliveries } from './words.ts';

export const madeUpStart: readonly StartTicket[] = [
	{ id: 1, status: 'open', version: 1 },
	{ id: 2, status: 'closed', version: 1 },
	{ id: 3, status: 'open', version: 3 }
];

// behind: how many versions old the decision is. repeat: send an earlier change again (a retry, or a late
// copy). Few texts, so two changes often say the same words.
const step = fc.record({
	kind: fc.constantFrom('set-status' as const, 'add-comment' as const),
	ticketId: fc.constantFrom(1, 2, 3),
	status: fc.constantFrom('closed' as const, 'open' as const),
	behind: fc.constantFrom(0, 0, 1, 2),
	text: fc.constantFrom('Is there any news?', 'Thank you.'),
	repeat: fc.option(fc.nat(11), { freq: 3, nil: null }),
	fault: fc.oneof({ weight: 4, arbitrary: fc.constant(faults[0]!) }, fc.constantFrom(...faults.slice(1)))
});
export type MadeUpStep = typeof step extends fc.Arbitrary<infer T> ? T : never;

// Each status change decided on a version its ticket really had: the model, played along, says which.
export function madeUpSchedule(steps: readonly MadeUpStep[]): JudgedSchedule {
	const model = new StatusContract(madeUpStart);
	const deliveries: ChangeDelivery[] = [];
	steps.forEach((s, i) => {
		const earlier =
			s.repeat === null || !deliveries.length ? null : deliveries[s.repeat % deliveries.length]!;
		const changeId = `chg-${i + 1}`;
		const { ticketId } = s;
		let change: Change;
		if (earlier) change = structuredClone(earlier.change);
		else if (s.kind === 'add-comment') change = { kind: 'add-comment', changeId, ticketId, text: s.text };
		else {
			const decidedOn = Math.max(1, model.versionOf(ticketId) - s.behind);
			change = { kind: 'set-status', changeId, ticketId, status: s.status, decidedOn };
		}
		deliveries.push({ change, fault: s.fault });
		model.deliver(change, s.fault);
	});
	return {
		name: 'made-up',
		title: 'A made-up schedule',
		story: `Made up by fast-check, to #1 (open, version 1), #2 (closed, version 1) and #3 (open, version 3): ${saidDeliveries(deliveries)}. Expected is what the contract says.`,
		start: madeUpStart.map((t) => ({ ...t })),
		deliveries,
		// Only the versioned column: the given ways of applying changes are pinned by the shipped schedules.
		expect: { versioned: expectedByContract(madeUpStart, deliveries) }
	};
}

export const madeUpSteps = fc.array(step, { minLength: 1, maxLength: 10 });
export const madeUpSchedules: fc.Arbitrary<JudgedSchedule> = madeUpSteps.map(madeUpSchedule);
