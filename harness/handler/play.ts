// Plays a handler schedule against a handler and says, in the lesson's words, where it went another way.
import { describe, it } from 'vitest';
import { handlerScheduleGroups, type HandlerName, type HandlerSchedule } from './schedules.ts';
import type { Database, Handler, Outcome } from '../core/model.ts';
import { firstDifference, sameLines, sideBySide } from '../core/report.ts';
import { plays } from '../core/plays.ts';
import type { Located } from '../core/schedules.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { running } from '../core/watchdog.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import {
	describeDelivery,
	earlierDeliveries,
	saidOutcome,
	saidReceipt,
	saidTicket,
	theyDiffer
} from '../core/words.ts';

export type Played = { outcomes: Outcome[]; db: Database };

function sameOutcome(a: Outcome, b: Outcome): boolean {
	return typeof b === 'object' && b !== null && a.kind === b.kind && a.ticketId === b.ticketId;
}

export function playHandler(
	schedule: HandlerSchedule,
	handler: Handler,
	name: HandlerName = 'receipt-in-commit'
): Played {
	const outcomes = schedule.deliveries.map((delivery, i) => {
		try {
			running(`${describeDelivery(schedule, i)} of schedule "${schedule.name}"`);
			return handler.handle({ ...delivery.event }, delivery.fault);
		} catch (error) {
			const where = `${describeDelivery(schedule, i)} of schedule "${schedule.name}"`;
			if (error instanceof NotWrittenYet)
				throw new ScheduleMismatch(`${error.message}\n  (stopped at ${where})`);
			const why = error instanceof Error ? error.message : String(error);
			throw new Error(
				`${heading(schedule, name)}\n${describeDelivery(schedule, i)}: your handler threw: ${why}`,
				{
					cause: error
				}
			);
		}
	});
	return { outcomes, db: handler.snapshot() };
}

// A schedule's story compares the two handlers; the first handler (01) hears only its deliveries, in words it
// has met by then: no receipts, no second handler.
function heading(schedule: HandlerSchedule, name: HandlerName): string {
	const story =
		name === 'create-every-time'
			? `${schedule.deliveries.map((_, i) => describeDelivery(schedule, i)).join('; ')}.`
			: schedule.story;
	return `Schedule "${schedule.name}" (${schedule.title}): ${story}`;
}

// null when the handler did what the schedule expects; otherwise the message a learner reads.
// `who` is what the learner wrote, as the message names it: 06's webhooks route plays these schedules too.
export function judgeHandler(
	schedule: HandlerSchedule,
	name: HandlerName,
	played: Played,
	who = 'your handler'
): string | null {
	const expected = schedule.expect[name];
	const db = played.db ?? { tickets: [], receipts: [] };
	// Every answer next to the one expected, then what was stored: the first ≠ is where to look.
	const answered = (outcomes: Outcome[]) => outcomes.map((o, i) => `${i + 1}: ${saidOutcome(o)}`);
	const rows = [
		{ label: 'answers', expected: answered(expected.outcomes), actual: answered(played.outcomes) },
		{
			label: 'tickets',
			expected: expected.tickets.map(saidTicket),
			actual: (db.tickets ?? []).map(saidTicket)
		},
		{
			label: 'receipts',
			expected: expected.receipts.map(saidReceipt),
			actual: (db.receipts ?? []).map(saidReceipt)
		}
	];
	// No receipts expected and none kept: a handler that has not met receipts yet (01) sees no row for them.
	const state = () =>
		sideBySide(rows.filter((row) => row.label !== 'receipts' || row.expected.length || row.actual.length));
	const at = firstDifference(expected.outcomes, played.outcomes, sameOutcome);
	if (at >= 0) {
		const wanted = saidOutcome(expected.outcomes[at]);
		const got = saidOutcome(played.outcomes[at]);
		const cause = usualCause(schedule, at, expected.outcomes[at], played.outcomes[at], name, who, db);
		const usually = cause ? `\nWhat this usually means: ${cause}\n` : '';
		return `${heading(schedule, name)}\n${describeDelivery(schedule, at)}: expected ${wanted}, ${who} ${got}.\n${usually}\nDelivery by delivery, and what was stored after the last:\n${state()}`;
	}
	const ticketsDiffer = !sameLines(expected.tickets.map(saidTicket), (db.tickets ?? []).map(saidTicket));
	const receiptsDiffer = !sameLines(expected.receipts.map(saidReceipt), (db.receipts ?? []).map(saidReceipt));
	if (!ticketsDiffer && !receiptsDiffer) return null;
	const what = [ticketsDiffer && 'tickets', receiptsDiffer && 'receipts'].filter((part) => part !== false);
	return `${heading(schedule, name)}\nEvery answer was right, but after the last delivery ${theyDiffer(what)}:\n\n${state()}`;
}

// The usual mistake behind a wrong answer, in the lesson's words; null when there is no usual one.
export function usualCause(
	schedule: HandlerSchedule,
	at: number,
	wanted: Outcome | undefined,
	got: Outcome | undefined,
	name: HandlerName = 'receipt-in-commit',
	who = 'your handler',
	stored?: Database
): string | null {
	const first = name === 'create-every-time';
	if (!wanted || !got || typeof got !== 'object') return null;
	const { fault } = schedule.deliveries[at]!;
	// Earlier deliveries of this event, by the harness's rule: the learner's sameEvent may be the mistake.
	const earlier = earlierDeliveries(schedule.deliveries, at);
	if (wanted.kind === 'crashed' && got.kind !== 'crashed')
		return `the worker dies at this delivery (fault '${fault}'), so nobody hears an answer: return { kind: 'crashed', ticketId: null }.`;
	if (wanted.kind === 'created' && got.kind === 'replayed' && earlier.length === 0)
		return `this is a new event, taken for one ${who} had seen. The identity is tenant, source and event id, all three, compared one by one.`;
	const kept = `${who} kept something from a delivery whose worker died before its commit. A crash before the commit must leave nothing behind: ${first ? 'no ticket' : 'no ticket and no receipt'}.`;
	// A replay is blamed on a crash before the commit only when no earlier delivery of this event committed.
	const noneCommitted = earlier.length > 0 && earlier.every((d) => d.fault === 'before-commit');
	if (wanted.kind === 'created' && got.kind === 'replayed' && noneCommitted) return kept;
	if (wanted.kind === 'replayed' && got.kind === 'created')
		return `${who} did not recognise a delivery it had already handled. Is the receipt saved in the same commit as the ticket, and found again with sameEvent?`;
	if (wanted.kind === 'conflict' && got.kind !== 'conflict')
		return `the same key now carries another subject. That is another request, not a retry: refuse it as a conflict rather than answer with a ticket made for something else.`;
	// A number past the one expected, after a crash before the commit, with more tickets stored than expected:
	// the crashed delivery's ticket stayed.
	const crashedBefore = schedule.deliveries.slice(0, at).some((d) => d.fault === 'before-commit');
	const expectedTickets = schedule.expect[name].tickets.length;
	const moreStored = stored === undefined || stored.tickets.length > expectedTickets;
	const past = (got.ticketId ?? 0) > (wanted.ticketId ?? 0);
	if (wanted.kind === got.kind && past && crashedBefore && moreStored) return kept;
	if (wanted.kind === got.kind && wanted.ticketId !== got.ticketId)
		return `the right kind of answer with the wrong ticket. Ticket ids count every ticket saved, from 1, including one saved just before a crash${first ? '' : '; a repeat gets the ticket its receipt names'}.`;
	return null;
}

// One test for each schedule, named by its title, holding the handler to one column of expectations: the
// lesson's nine first, then the schedules beyond them, in a group of their own.
export function playHandlerSchedules(name: HandlerName, makeHandler: () => Handler): void {
	const { lesson, beyond } = handlerScheduleGroups();
	const play = (schedule: HandlerSchedule & Located) =>
		it(schedule.title, plays(schedule, name), () => {
			const problem = judgeHandler(schedule, name, playHandler(schedule, makeHandler(), name));
			if (problem) throw new ScheduleMismatch(problem);
		});
	describe(`the schedules, as ${name}`, () => lesson.forEach(play));
	describe(`beyond the lesson's nine, as ${name}`, () => beyond.forEach(play));
}

// snapshot() must hand out a copy: a caller that scribbles on it can't change the store.
export function snapshotIsACopy(makeHandler: () => Handler): void {
	it('snapshot() hands out a copy: changing it leaves the store alone', () => {
		const problem = snapshotProblem(makeHandler());
		if (problem) throw new ScheduleMismatch(problem);
	});
}

// null when changing a snapshot leaves the store alone; otherwise the store before and after, line by line.
export function snapshotProblem(handler: Handler): string | null {
	handler.handle({ tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' });
	const before = handler.snapshot();
	const unchanged = JSON.stringify(before);
	const copy = handler.snapshot();
	copy.tickets.push({ id: 99, tenant: 'mallory', subject: 'Pushed into a snapshot' });
	copy.receipts.push({ tenant: 'mallory', source: 'x', eventId: 'x', subject: 'x', ticketId: 99 });
	if (copy.tickets[0]) copy.tickets[0].subject = 'Changed through a snapshot';
	if (copy.receipts[0]) copy.receipts[0].ticketId = 99;
	const after = handler.snapshot();
	if (JSON.stringify(after) === unchanged) return null;
	const stored = JSON.parse(unchanged) as Database;
	const rows = [
		{ label: 'tickets', expected: stored.tickets.map(saidTicket), actual: after.tickets.map(saidTicket) },
		{ label: 'receipts', expected: stored.receipts.map(saidReceipt), actual: after.receipts.map(saidReceipt) }
	];
	return `Changing what snapshot() returned changed the handler's store.\nThe store as it should have stayed, and after the test changed the copy:\n${sideBySide(rows)}\nReturn a copy (copyDatabase from #harness/core/model.ts), not the live arrays.`;
}
