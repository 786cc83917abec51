// Exercise 07's checks: the shipped status schedules as versioned, the two given cases, and made-up schedules
// (harness/status/made-up.ts, the generator 07's own property draws from: three tickets, closes, reopens and
// comments, some decided on an older version, some sent again, some whose worker dies), judged against the
// contract's model (harness/status/contract.ts), answer by answer and in the end state.
import { expectedByContract } from '#harness/status/contract.ts';
import { madeUpSchedules } from '#harness/status/made-up.ts';
import { judgeStatus, type PlayedChanges } from '#harness/status/play.ts';
import type { Answer } from '#harness/status/model.ts';
import { statusSchedules, type JudgedSchedule, type StatusSchedule } from '#harness/status/schedules.ts';
import { canonical, heldOut, said, type Check, type Probe } from '../trusted/probe.ts';

// What the sandbox is handed for a made-up schedule: the tickets and the changes, never an expectation.
const withoutExpectation = ({ expect: _expect, ...input }: JudgedSchedule) => input;
type Input = ReturnType<typeof withoutExpectation>;

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

// The contract's answer to a made-up schedule, worked out once for the class: every submission is judged on the
// same planned inputs.
const byContract = new WeakMap<Input, JudgedSchedule['expect']>();
function contractOf(input: Input): JudgedSchedule['expect'] {
	let expect = byContract.get(input);
	if (!expect) {
		expect = { versioned: expectedByContract(input.start, input.deliveries) };
		byContract.set(input, expect);
	}
	return expect;
}

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
	...heldOut(settings, 'schedules, as versioned', madeUpSchedules.map(withoutExpectation), () => ({
		observer: 'schedule',
		judge: (input: Input, played: PlayedChanges) =>
			judgeStatus({ ...input, expect: contractOf(input) }, 'versioned', played)
	}))
];
