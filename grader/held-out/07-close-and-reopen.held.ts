// Exercise 07's held-out checks: random changes to two tickets (closes, reopens, comments, some decided on an
// older version, some sent again, some whose worker dies), played against the learner's rules and the reference.
import fc from 'fast-check';
import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { judgeStatus, playStatus } from '#shared/play-status.ts';
import { faults } from '#shared/model.ts';
import type { ChangeDelivery, StatusSchedule } from '#shared/status-schedules.ts';
import { ChangeHandler, ticketIn, type Change, type StartTicket } from '#shared/status-model.ts';
import { saidChange } from '#shared/status-words.ts';
import { addComment, setStatus } from '../../exercises/07-close-and-reopen/status.ts';
import * as reference from '../../solutions/07-close-and-reopen/status.ts';
import { heldOutChecks } from './seed.ts';

const start: StartTicket[] = [
	{ id: 1, status: 'open', version: 1 },
	{ id: 2, status: 'closed', version: 1 }
];

// One step, before it is made concrete: behind says how many versions old its decision is, and repeat picks
// an earlier change to send again (a retry, or a late copy).
const step = fc.record({
	kind: fc.constantFrom('set-status', 'set-status', 'add-comment'),
	ticketId: fc.constantFrom(1, 2),
	status: fc.constantFrom('open', 'closed'),
	behind: fc.constantFrom(0, 0, 1, 2),
	text: fc.constantFrom('Is there any news?', 'Thank you.', 'It is broken again.'),
	repeat: fc.option(fc.nat(7), { freq: 3 }),
	fault: fc.oneof({ weight: 3, arbitrary: fc.constant(faults[0]!) }, fc.constantFrom(...faults))
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

// Each change decided on a version the ticket really had: the reference, played along, says which.
function concrete(steps: Step[]): ChangeDelivery[] {
	const along = new ChangeHandler(reference, start);
	const deliveries: ChangeDelivery[] = [];
	steps.forEach((s, i) => {
		let change: Change;
		const earlier = s.repeat === null ? undefined : deliveries[s.repeat % Math.max(deliveries.length, 1)];
		const changeId = `chg-${i + 1}`;
		if (earlier) change = structuredClone(earlier.change);
		else if (s.kind === 'add-comment')
			change = { kind: 'add-comment', changeId, ticketId: s.ticketId, text: s.text };
		else {
			const now = ticketIn(along.snapshot(), s.ticketId).version;
			const decidedOn = Math.max(1, now - s.behind);
			change = { kind: 'set-status', changeId, ticketId: s.ticketId, status: s.status as 'open', decidedOn };
		}
		along.handle(change, s.fault);
		deliveries.push({ change, fault: s.fault });
	});
	return deliveries;
}

const changes = fc.array(step, { minLength: 1, maxLength: 8 }).map(concrete);
const dies = {
	none: '',
	'before-commit': ', dies before its commit',
	'after-commit': ', dies after its commit'
};
const told = (deliveries: ChangeDelivery[]) =>
	deliveries.map((d, i) => `${i + 1}. ${saidChange(d.change)}${dies[d.fault]}`).join('; ');

describe(heading('07'), () => {
	describe('held-out schedules, as versioned', () => {
		heldOutChecks('schedules', changes, (deliveries) => {
			const schedule: StatusSchedule = {
				name: 'held-out',
				title: 'A random schedule',
				story: `Changes the shipped schedules do not have, to #1 (open) and #2 (closed), both at version 1: ${told(deliveries)}. Expected is what the reference solution did.`,
				start,
				deliveries,
				expect: {} as StatusSchedule['expect']
			};
			const expected = playStatus(schedule, reference);
			schedule.expect.versioned = { answers: expected.answers, ...expected.store };
			return judgeStatus(schedule, 'versioned', playStatus(schedule, { setStatus, addComment }));
		});
	});
});
