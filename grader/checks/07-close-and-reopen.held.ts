// Exercise 07's checks: the shipped status schedules as versioned, the two given cases, and random changes to
// two tickets (closes, reopens, comments, some decided on an older version, some sent again, some whose worker
// dies), judged against what the reference did on the same changes.
import fc from 'fast-check';
import { faults } from '#harness/core/model.ts';
import { judgeStatus, type PlayedChanges } from '#harness/status/play.ts';
import {
	ChangeHandler,
	ticketIn,
	type Answer,
	type Change,
	type Rules,
	type StartTicket
} from '#harness/status/model.ts';
import { statusSchedules, type ChangeDelivery, type StatusSchedule } from '#harness/status/schedules.ts';
import { saidChange } from '#harness/status/words.ts';
import { canonical, heldOut, said, type Check, type Probe } from '../trusted/probe.ts';

// The reference makes the random changes realistic; a package grades from frozen inputs and has none.
const reference = (await import('../../solutions/07-close-and-reopen/status.ts').catch(
	() => null
)) as Rules | null;

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
	if (!reference) throw new Error('drawing held-out changes needs solutions/07-close-and-reopen/status.ts');
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

const dies = {
	none: '',
	'before-commit': ', dies before its commit',
	'after-commit': ', dies after its commit'
};
const told = (deliveries: ChangeDelivery[]) =>
	deliveries.map((d, i) => `${i + 1}. ${saidChange(d.change)}${dies[d.fault]}`).join('; ');

// What the sandbox is handed for a random schedule: the tickets and the changes, never an expectation.
const randomSchedule = (deliveries: ChangeDelivery[]) => ({
	name: 'held-out',
	title: 'A random schedule',
	story: `Changes the shipped schedules do not have, to #1 (open) and #2 (closed), both at version 1: ${told(deliveries)}. Expected is what the reference solution did.`,
	start,
	deliveries
});

const closeFiveTimes: Check = {
	name: 'setStatus: no receipt › closing five times keeps no receipt and leaves one state',
	heldOut: false,
	observer: 'close-five-times',
	cases: [null],
	judge: (_input, { answers, store }: PlayedChanges) => {
		if (new Set(answers.map(canonical)).size !== 1)
			return `Five deliveries of one close got different answers: ${said(answers)}. Setting a status again changes nothing, so it answers the same.`;
		if (store.receipts.length)
			return `A status change needs no receipt, but the store kept ${said(store.receipts)}.`;
		const ticket = store.tickets[0];
		return ticket?.status === 'closed' && ticket.version === 2
			? null
			: `After five deliveries of one close, #1 should be closed at version 2; it is ${said(ticket)}.`;
	}
};

const staleChange: Check = {
	name: 'setStatus: no receipt › a stale change writes nothing',
	heldOut: false,
	observer: 'stale-change',
	cases: [null],
	judge: (_input, { answer, before, after }: { answer: Answer; before: unknown; after: unknown }) => {
		if (canonical(answer) !== canonical({ kind: 'stale', version: 2 }))
			return `A reopen decided on version 1, after #1 was closed (version 2): expected stale at version 2, your code ${said(answer)}.`;
		return canonical(after) === canonical(before)
			? null
			: `A stale change was refused, but the ticket changed.\nbefore: ${said(before)}\nafter:  ${said(after)}`;
	}
};

export const probe: Probe = (settings) => [
	...statusSchedules().map((schedule) => ({
		name: `the schedules, as versioned › ${schedule.title}`,
		heldOut: false,
		observer: 'schedule',
		cases: [schedule],
		judge: (input: StatusSchedule, played: PlayedChanges) => judgeStatus(input, 'versioned', played)
	})),
	closeFiveTimes,
	staleChange,
	...heldOut(
		settings,
		'schedules, as versioned',
		fc.array(step, { minLength: 1, maxLength: 8 }).map(concrete).map(randomSchedule),
		() => ({
			observer: 'schedule',
			judge: (input: Omit<StatusSchedule, 'expect'>, played: PlayedChanges, expected: PlayedChanges) => {
				const expect = { versioned: { answers: expected.answers, ...expected.store } };
				return judgeStatus({ ...input, expect } as StatusSchedule, 'versioned', played);
			}
		})
	)
];
