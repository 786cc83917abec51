// Plays a status schedule against one way of applying changes, and says, in the lesson's words, where it went
// another way: the schedule, the delivery, what was expected and what the code did, then both stores side by side.
import { describe, it } from 'vitest';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { plays } from '../core/plays.ts';
import { firstDifference, sideBySide } from '../core/report.ts';
import { ChangeHandler, type Answer, type Rules, type StatusStore } from './model.ts';
import { StatusContract } from './contract.ts';
import { statusSchedules, type ApplierName, type JudgedSchedule } from './schedules.ts';
import { describeChangeDelivery, saidAnswer, saidReceipt, saidTicket } from './words.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { running } from '../core/watchdog.ts';

export type PlayedChanges = { answers: Answer[]; store: StatusStore };

function heading(schedule: JudgedSchedule): string {
	return `Schedule "${schedule.name}" (${schedule.title}): ${schedule.story}`;
}

export function playStatus(schedule: JudgedSchedule, rules: Rules): PlayedChanges {
	const handler = new ChangeHandler(rules, schedule.start);
	const answers = schedule.deliveries.map((delivery, i) => {
		try {
			running(`${describeChangeDelivery(schedule.deliveries, i)} of schedule "${schedule.name}"`);
			return handler.handle(structuredClone(delivery.change), delivery.fault);
		} catch (error) {
			const where = `${describeChangeDelivery(schedule.deliveries, i)} of schedule "${schedule.name}"`;
			if (error instanceof NotWrittenYet)
				throw new ScheduleMismatch(`${error.message}\n  (stopped at ${where})`);
			const why = error instanceof Error ? error.message : String(error);
			throw new ScheduleMismatch(
				`${heading(schedule)}\n${describeChangeDelivery(schedule.deliveries, i)}: your code threw: ${why}`
			);
		}
	});
	return { answers, store: handler.snapshot() };
}

// Plays the schedule with the rules as they are, and throws only if one of them is still the stub.
export function stopAtStub(rules: Rules, schedule: JudgedSchedule): void {
	let stub: NotWrittenYet | null = null;
	const noted =
		<C>(rule: (store: StatusStore, change: C) => Answer) =>
		(store: StatusStore, change: C) => {
			try {
				return rule(store, change);
			} catch (error) {
				if (error instanceof NotWrittenYet) stub ??= error;
				throw error;
			}
		};
	try {
		playStatus(schedule, { setStatus: noted(rules.setStatus), addComment: noted(rules.addComment) });
	} catch {
		// Any other failure is the property's to find and shrink.
	}
	if (stub) throw new ScheduleMismatch((stub as NotWrittenYet).message);
}

// Field by field, whatever order the code wrote them in.
const canonical = (answer: unknown) =>
	answer !== null && typeof answer === 'object'
		? JSON.stringify(answer, Object.keys(answer).sort())
		: String(answer);
const sameAnswer = (a: Answer, b: Answer) => canonical(a) === canonical(b);
const ticketLines = (store: Pick<StatusStore, 'tickets'>) => (store.tickets ?? []).flatMap(saidTicket);

// null when the code did what the schedule's column expects; otherwise the message a learner reads.
export function judgeStatus(
	schedule: JudgedSchedule,
	name: ApplierName,
	played: PlayedChanges
): string | null {
	const expected = schedule.expect[name];
	if (!expected) throw new Error(`schedule "${schedule.name}" expects nothing of ${name}`);
	const store = played.store ?? { tickets: [], receipts: [] };
	const answered = (answers: Answer[]) => answers.map((a, i) => `${i + 1}: ${saidAnswer(a)}`);
	const rows = [
		{ label: 'answers', expected: answered(expected.answers), actual: answered(played.answers) },
		{ label: 'tickets', expected: ticketLines(expected), actual: ticketLines(store) },
		{
			label: 'receipts',
			expected: expected.receipts.map(saidReceipt),
			actual: (store.receipts ?? []).map(saidReceipt)
		}
	];
	// The two states side by side, made only for a message.
	const state = () => sideBySide(rows);
	const at = firstDifference(expected.answers, played.answers, sameAnswer);
	if (at >= 0) {
		const wanted = saidAnswer(expected.answers[at]);
		const said = saidAnswer(played.answers[at]);
		// The same words with another field in it: show the fields.
		const got = said === wanted ? `returned ${canonical(played.answers[at])}` : said;
		const cause = usualCause(schedule, at, expected.answers[at], played.answers[at]);
		const usually = cause ? `\nWhat this usually means: ${cause}\n` : '';
		return `${heading(schedule)}\n${describeChangeDelivery(schedule.deliveries, at)}: expected ${wanted}, your code ${got}.\n${usually}\nDelivery by delivery, and what was stored after the last:\n${state()}`;
	}
	const differ = rows.filter((row) => JSON.stringify(row.expected) !== JSON.stringify(row.actual));
	if (differ.length === 0) return null;
	const what = differ.map((row) => row.label).join(' and ');
	return `${heading(schedule)}\nEvery answer was right, but after the last delivery the ${what} differ:\n\n${state()}`;
}

// The usual mistake behind a wrong answer, in the lesson's words; null when there is no usual one.
export function usualCause(
	schedule: JudgedSchedule,
	at: number,
	wanted: Answer | undefined,
	got: Answer | undefined
): string | null {
	if (!wanted || !got || typeof got !== 'object') return null;
	const { change, fault } = schedule.deliveries[at]!;
	const again = schedule.deliveries.slice(0, at).some((d) => d.change.changeId === change.changeId);
	if (wanted.kind === 'crashed')
		return `the worker dies at this delivery (fault '${fault}'), so nobody hears an answer.`;
	if (wanted.kind === 'stale' && got.kind === 'set')
		return `this change was decided on version ${change.kind === 'set-status' ? change.decidedOn : '?'}, and the ticket has moved on to version ${wanted.version} since: someone else changed it. Applying it undoes their change. A change decided on an older version is refused as stale, and the sender hears the version to decide on again.`;
	if (wanted.kind === 'set' && got.kind === 'stale' && again)
		return `this is the same change again (${change.changeId}), a retry, not a stale change. It still says the version it was decided on, but it is the change that made the ticket's current version: the ticket remembers that change's id (lastChange), and a retry of it gets the same answer as the first time.`;
	if (wanted.kind === 'set' && got.kind === 'stale')
		return `this change was decided on the version the ticket is at, so nothing has changed since: apply it. Only an older version is stale (decidedOn < version, not <=).`;
	if (wanted.kind === 'commented' && got.kind === 'commented')
		return commentCause(schedule, at, wanted.comment, got.comment, again);
	if (wanted.kind === 'set' && got.kind === 'set' && wanted.version !== got.version)
		return `the version moves by one when the status changes, and only then: setting the status the ticket already has changes nothing, and a comment never moves it.`;
	return null;
}

// A comment numbered another way, told from what the contract had stored before this delivery.
function commentCause(
	schedule: JudgedSchedule,
	at: number,
	wanted: number,
	got: number,
	again: boolean
): string | null {
	const { change } = schedule.deliveries[at]!;
	if (change.kind !== 'add-comment') return null;
	const contract = new StatusContract(schedule.start);
	for (const d of schedule.deliveries.slice(0, at)) contract.deliver(d.change, d.fault);
	const tickets = contract.store().tickets;
	const onTicket = tickets.find((t) => t.id === change.ticketId)?.comments ?? [];
	const onEvery = tickets.reduce((n, t) => n + t.comments.length, 0);
	const here = `#${change.ticketId}`;
	if (again && got === onTicket.length && got !== wanted)
		return `this is ${change.changeId} again, and its first delivery went in as comment ${wanted} on ${here}. Your code answered ${got}, the count of comments on ${here} now: a repeat gets the answer its first delivery got, kept in its receipt, not the count after later comments.`;
	if (got > wanted && again)
		return `the comment went in again. Adding a comment is not idempotent: keep a receipt by the change's id, in the same commit as the comment, and answer a repeat from it.`;
	if (!again && got < wanted && onTicket.includes(change.text))
		return `${change.changeId} is a new change that says the same words as an earlier comment on ${here} ("${change.text}"), and your code took it for that comment. A comment is told apart by its change's id, not its text: two people may both write "${change.text}". It is comment ${wanted}.`;
	if (!again && got === onEvery + 1 && got !== wanted)
		return `comments are numbered per ticket: this is comment ${wanted} on ${here}. Your code answered ${got}, counting the comments on every ticket (${onEvery} before it).`;
	return null;
}

// One test for each status schedule, named by its title, holding the rules to one column of expectations.
export function playStatusSchedules(name: ApplierName, rules: () => Rules): void {
	describe(`the schedules, as ${name}`, () => {
		for (const schedule of statusSchedules()) {
			it(schedule.title, plays(schedule, name), () => {
				const problem = judgeStatus(schedule, name, playStatus(schedule, rules()));
				if (problem) throw new ScheduleMismatch(problem);
			});
		}
	});
}
