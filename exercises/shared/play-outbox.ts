// Plays an outbox schedule: deliveries through a handler, relay runs, the provider going down and time passing,
// all on one database and one fake mail provider; then says, in the lesson's words, where it went another way.
import { describe, it } from 'vitest';
import { InMemoryDatabase, type Connection, type Contents, type OutboxRow } from './database.ts';
import { MailProvider, ManualClock, type Call, type Delivered, type Mail } from './mail-provider.ts';
import { crashed, type Outcome, type Webhook } from './model.ts';
import type { Email } from './outbox-model.ts';
import {
	outboxSchedules,
	type ExpectedRow,
	type OutboxSchedule,
	type SenderName
} from './outbox-schedules.ts';
import { describeStep, saidCall, saidEmail, saidRow, tellSteps } from './outbox-words.ts';
import { ScheduleMismatch } from './play-handler.ts';
import { plays } from './plays.ts';
import { firstDifference, sideBySide } from './report.ts';
import { oneAtATime, runWorkers, type CrashPoint, type Ending } from './scheduler.ts';
import { NotWrittenYet } from './todo.ts';
import type { TraceLine } from './trace.ts';
import { saidOutcome, saidReceipt, saidTicket } from './words.ts';

// A way of sending the confirmation: a handler, and the relay that sends after the commit (null: none).
export type Sender = {
	name: SenderName;
	handle(conn: Connection, event: Webhook, mail: Mail): Promise<Outcome>;
	relay: ((conn: Connection, mail: Mail) => Promise<void>) | null;
};

// One database and one mail provider, shared by every worker a schedule or a property starts.
export class OutboxWorld {
	readonly db = new InMemoryDatabase();
	readonly clock = new ManualClock();
	readonly provider = new MailProvider({ clock: this.clock });

	// The worker's mail: each send is a step of its worker outside the database, and a line of the trace.
	mailFor(conn: Connection): Mail {
		return {
			send: (email) =>
				conn.outside('send-email', async () => {
					const who = conn.worker;
					try {
						const accepted = await this.provider.send(email);
						const answer = accepted.duplicate
							? 'recognised the key: a duplicate, not delivered again'
							: 'delivered';
						this.db.say(who, `${who} sends the email ${saidEmail(email)}: the provider ${answer}.`);
						return accepted;
					} catch (error) {
						this.db.say(who, `${who} sends the email ${saidEmail(email)}: ${(error as Error).message}.`);
						throw error;
					}
				})
		};
	}

	snapshot(): { committed: Contents; inbox: Delivered[]; calls: Call[] } {
		return { committed: this.db.committed(), inbox: this.provider.inbox(), calls: this.provider.calls() };
	}
}

// The scheduler's crash points for a schedule's faults.
export function deliveryCrash(fault: 'none' | 'before-commit' | 'after-commit'): CrashPoint | null {
	if (fault === 'before-commit') return { when: 'before-commit' };
	if (fault === 'after-commit') return { when: 'before-answering' };
	return null;
}

export function relayCrash(step: OutboxSchedule['steps'][number] & { do: 'relay' }): CrashPoint | null {
	const crash = step.crash;
	if (!crash) return null;
	if (crash.after === 'read') return { when: 'after', operation: 'pending-outbox' };
	return { when: 'after', operation: crash.after === 'send' ? 'send-email' : 'mark-sent', nth: crash.email };
}

export type Played = {
	outcomes: Outcome[];
	committed: Contents;
	inbox: Delivered[];
	calls: Call[];
	// What happened at each step, as sentences.
	story: string[];
};

// A worker that threw: the learner's code (or a stub) stopped the schedule. Says where, and what.
function threw(schedule: OutboxSchedule, index: number, who: string, error: unknown): never {
	const where = `step ${index + 1}, ${describeStep(schedule, index)}, of schedule "${schedule.name}"`;
	if (error instanceof NotWrittenYet) throw new ScheduleMismatch(`${error.message}\n(stopped at ${where})`);
	const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
	const advice =
		who === 'relay'
			? '\nA relay does not throw: when the provider fails, it leaves the row pending for the next run and goes on.'
			: '';
	throw new ScheduleMismatch(`${heading(schedule)}\n${where}: your ${who} threw ${why}${advice}`);
}

function heading(schedule: OutboxSchedule): string {
	return `Schedule "${schedule.name}" (${schedule.title}): ${schedule.story}`;
}

export async function playOutbox(schedule: OutboxSchedule, sender: Sender): Promise<Played> {
	const world = new OutboxWorld();
	const outcomes: Outcome[] = [];
	const story: string[] = [];
	let deliveries = 0;
	let relays = 0;
	for (const [index, step] of schedule.steps.entries()) {
		const from = world.db.trace.length;
		if (step.do === 'deliver') {
			const name = `delivery ${++deliveries}`;
			const run = await runWorkers<Outcome>(
				world.db,
				[
					{
						name,
						run: (conn) => sender.handle(conn, { ...step.event }, world.mailFor(conn)),
						crash: deliveryCrash(step.fault)
					}
				],
				oneAtATime(),
				{ tell: (outcome) => `answers: ${saidOutcome(outcome)}` }
			);
			const ending = run.endings.get(name)!;
			if (ending.kind === 'failed') threw(schedule, index, 'handler', ending.error);
			outcomes.push(ending.kind === 'answered' ? ending.value : crashed);
		} else if (step.do === 'relay') {
			const name = `relay ${++relays}`;
			const relay = sender.relay;
			if (relay) {
				const run = await runWorkers<void>(
					world.db,
					[{ name, run: (conn) => relay(conn, world.mailFor(conn)), crash: relayCrash(step) }],
					oneAtATime(),
					{ tell: () => 'is done' }
				);
				const ending: Ending<void> = run.endings.get(name)!;
				if (ending.kind === 'failed') threw(schedule, index, 'relay', ending.error);
			} else world.db.say(name, `${sender.name} has no relay: nothing runs.`);
		} else if (step.do === 'provider-down') world.provider.goDown();
		else if (step.do === 'provider-up') world.provider.comeBack();
		else world.clock.advance(step.seconds);
		const lines = world.db.trace.slice(from).map((line: TraceLine) => `       ${line.text}`);
		story.push(`  ${index + 1}. ${describeStep(schedule, index)}`, ...lines);
	}
	return { outcomes, ...world.snapshot(), story };
}

const withoutId = ({ id: _id, ...row }: OutboxRow): ExpectedRow => row;
const emailOf = ({ key, to, ticketId, subject }: Email): Email => ({ key, to, ticketId, subject });
const callOf = ({ key, answer }: Call) => ({ key, answer });

// The inbox, compared email by email: which are missing, which came twice, which are about no ticket at all.
export function inboxProblems(expected: Email[], actual: Email[], ticketIds: number[]): string[] {
	const left = expected.map(saidEmail);
	const extra: Email[] = [];
	for (const email of actual) {
		const at = left.indexOf(saidEmail(email));
		if (at >= 0) left.splice(at, 1);
		else extra.push(email);
	}
	const problems = left.map((line) => `missing: the email ${line}`);
	for (const email of extra) {
		const copies = actual.filter((other) => saidEmail(other) === saidEmail(email)).length;
		const wanted = expected.filter((other) => saidEmail(other) === saidEmail(email)).length;
		if (!ticketIds.includes(email.ticketId))
			problems.push(`an email about ticket #${email.ticketId}, which does not exist: ${saidEmail(email)}`);
		else if (wanted > 0)
			problems.push(`doubled: the email ${saidEmail(email)} was delivered ${copies} times`);
		else problems.push(`not expected: the email ${saidEmail(email)}`);
	}
	return [...new Set(problems)];
}

function sameLines(a: string[], b: string[]): boolean {
	return a.length === b.length && a.every((line, i) => line === b[i]);
}

// null when the played schedule matches the sender's expectations; otherwise the message a learner reads.
export function judgeOutbox(schedule: OutboxSchedule, name: SenderName, played: Played): string | null {
	const expected = schedule.expect[name];
	const { committed } = played;
	const rows = [
		{
			label: 'tickets',
			expected: expected.tickets.map(saidTicket),
			actual: committed.tickets.map(saidTicket)
		},
		{
			label: 'receipts',
			expected: expected.receipts.map(saidReceipt),
			actual: committed.receipts.map(saidReceipt)
		},
		{
			label: 'outbox',
			expected: expected.outbox.map(saidRow),
			actual: committed.outbox.map((row) => saidRow(withoutId(row)))
		},
		{
			label: 'inbox',
			expected: expected.inbox.map(saidEmail),
			actual: played.inbox.map((e) => saidEmail(emailOf(e)))
		},
		{
			label: 'calls',
			expected: expected.calls.map(saidCall),
			actual: played.calls.map((c) => saidCall(callOf(c)))
		}
	];
	const tail = `\n\nAfter the last step:\n${sideBySide(rows)}\n\nWhat happened:\n${played.story.join('\n')}`;
	const top = `${heading(schedule)}\nSteps:\n${tellSteps(schedule)}\n\n`;

	const at = firstDifference(
		expected.outcomes,
		played.outcomes,
		(a, b) => a.kind === b?.kind && a.ticketId === b?.ticketId
	);
	if (at >= 0) {
		const index = schedule.steps.map((s, i) => (s.do === 'deliver' ? i : -1)).filter((i) => i >= 0)[at]!;
		const wanted = saidOutcome(expected.outcomes[at]);
		const got = saidOutcome(played.outcomes[at]);
		return `${top}${describeStep(schedule, index)}: expected ${wanted}, the handler ${got}.${tail}`;
	}
	const ticketIds = committed.tickets.map((ticket) => ticket.id);
	const inbox = inboxProblems(expected.inbox, played.inbox.map(emailOf), ticketIds);
	if (inbox.length) return `${top}The inbox is wrong:\n${inbox.map((p) => `  ${p}`).join('\n')}${tail}`;
	const differ = rows.filter((row) => !sameLines(row.expected, row.actual)).map((row) => row.label);
	if (differ.length === 0) return null;
	return `${top}Every answer and every email was right, but after the last step the ${differ.join(' and ')} differ.${tail}`;
}

// One test for each outbox schedule, named by its title, holding the sender to its column of expectations.
export function playOutboxSchedules(makeSender: () => Sender): void {
	const name = makeSender().name;
	describe(`the schedules, as ${name}`, () => {
		for (const schedule of outboxSchedules()) {
			it(schedule.title, plays(schedule, name), async () => {
				const problem = judgeOutbox(schedule, name, await playOutbox(schedule, makeSender()));
				if (problem) throw new ScheduleMismatch(problem);
			});
		}
	});
}
