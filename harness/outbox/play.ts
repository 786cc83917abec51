// Plays an outbox schedule: deliveries through a handler, relay runs, the provider going down and time passing,
// all on one database and one fake mail provider; then says, in the lesson's words, where it went another way.
import { describe, it } from 'vitest';
import {
	InMemoryDatabase,
	UniqueViolation,
	type Connection,
	type Contents,
	type OutboxRow,
	type SharedDatabase
} from '../database/database.ts';
import {
	KeyReused,
	MailProvider,
	ManualClock,
	ProviderDown,
	type Call,
	type Delivered,
	type Mail
} from './mail-provider.ts';
import { crashed, type Outcome, type Webhook } from '../core/model.ts';
import type { Email } from './model.ts';
import { outboxSchedules, type ExpectedRow, type OutboxSchedule, type SenderName } from './schedules.ts';
import { describeStep, saidCall, saidEmail, saidRow, tellSteps } from './words.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { openDatabase } from '../database/open-database.ts';
import { plays } from '../core/plays.ts';
import { firstDifference, sameLines, sideBySide } from '../core/report.ts';
import { LeftOpen, oneAtATime, runWorkers, type CrashPoint, type Ending } from '../scheduler/scheduler.ts';
import { NotWrittenYet } from '../core/todo.ts';
import type { TraceLine } from '../scheduler/trace.ts';
import { answered, saidOutcome, saidReceipt, saidTicket, theyDiffer } from '../core/words.ts';
import { running } from '../core/watchdog.ts';

// A way of sending the confirmation: a handler, and the relay that sends after the commit (null: none).
export type Sender = {
	name: SenderName;
	handle(conn: Connection, event: Webhook, mail: Mail): Promise<Outcome>;
	relay: ((conn: Connection, mail: Mail) => Promise<void>) | null;
};

// One database and one mail provider, shared by every worker a schedule or a property starts. In memory
// unless given another (the schedule players open theirs with openDatabase()).
export class OutboxWorld<D extends SharedDatabase = InMemoryDatabase> {
	constructor(readonly db: D = new InMemoryDatabase() as SharedDatabase as D) {}
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

	// One delivery, alone, through the sender's handler.
	async deliver(name: string, sender: Sender, event: Webhook, crash: CrashPoint | null = null) {
		const plan = {
			name,
			run: (conn: Connection) => sender.handle(conn, { ...event }, this.mailFor(conn)),
			crash
		};
		const run = await runWorkers<Outcome, D>(this.db, [plan], oneAtATime(), { tell: answered });
		return run.endings.get(name)!;
	}

	// One run of the sender's relay, alone; null when the sender has none.
	async relay(name: string, sender: Sender, crash: CrashPoint | null = null): Promise<Ending<void> | null> {
		const relay = sender.relay;
		if (!relay) {
			this.db.say(name, `${sender.name} has no relay: nothing runs.`);
			return null;
		}
		const plan = { name, run: (conn: Connection) => relay(conn, this.mailFor(conn)), crash };
		const run = await runWorkers<void, D>(this.db, [plan], oneAtATime(), { tell: answered });
		return run.endings.get(name)!;
	}

	async snapshot(): Promise<{ committed: Contents; inbox: Delivered[]; calls: Call[] }> {
		const committed = await this.db.committed();
		return { committed, inbox: this.provider.inbox(), calls: this.provider.calls() };
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
	throw new ScheduleMismatch(
		`${heading(schedule)}\n${where}: your ${who} threw ${why}${adviceFor(who, error)}`
	);
}

// The usual cause of a throw, in the lesson's words.
function adviceFor(who: string, error: unknown): string {
	if (who === 'relay' && (error instanceof ProviderDown || error instanceof KeyReused))
		return "\nA relay does not throw the provider's refusals: when the provider is down or refuses a key, it leaves the row pending for the next run and goes on to the next row.";
	if (error instanceof UniqueViolation && error.message.includes('outbox_key'))
		return '\nTwo tickets asked for the same email key. The key must name the ticket (its tenant, its id, the kind of email), not the delivery or its words.';
	return '';
}

function heading(schedule: OutboxSchedule): string {
	return `Schedule "${schedule.name}" (${schedule.title}): ${schedule.story}`;
}

// A handler or relay that came back inside its transaction (left-open.ts), told under the schedule and step.
const underStep = (schedule: OutboxSchedule, index: number) => (error: unknown) => {
	if (!(error instanceof LeftOpen)) throw error;
	const where = `step ${index + 1}, ${describeStep(schedule, index)}, of schedule "${schedule.name}"`;
	throw error.within(`${heading(schedule)}\n${where}:`);
};

export async function playOutbox(schedule: OutboxSchedule, sender: Sender): Promise<Played> {
	const world = new OutboxWorld(await openDatabase());
	const outcomes: Outcome[] = [];
	const story: string[] = [];
	let deliveries = 0;
	let relays = 0;
	for (const [index, step] of schedule.steps.entries()) {
		const from = world.db.trace.length;
		if (step.do === 'deliver') {
			running(`step ${index + 1} of schedule "${schedule.name}": ${describeStep(schedule, index)}`);
			const ending = await world
				.deliver(`delivery ${++deliveries}`, sender, step.event, deliveryCrash(step.fault))
				.catch(underStep(schedule, index));
			if (ending.kind === 'failed') threw(schedule, index, 'handler', ending.error);
			outcomes.push(ending.kind === 'answered' ? ending.value : crashed);
		} else if (step.do === 'relay') {
			running(`step ${index + 1} of schedule "${schedule.name}": ${describeStep(schedule, index)}`);
			const ending = await world
				.relay(`relay ${++relays}`, sender, relayCrash(step))
				.catch(underStep(schedule, index));
			if (ending?.kind === 'failed') threw(schedule, index, 'relay', ending.error);
		} else if (step.do === 'provider-down') world.provider.goDown();
		else if (step.do === 'provider-up') world.provider.comeBack();
		else world.clock.advance(step.seconds);
		const lines = world.db.trace.slice(from).map((line: TraceLine) => `       ${line.text}`);
		story.push(`  ${index + 1}. ${describeStep(schedule, index)}`, ...lines);
	}
	return { outcomes, ...(await world.snapshot()), story };
}

const withoutId = ({ id: _id, ...row }: OutboxRow): ExpectedRow => row;
const emailOf = ({ key, to, ticketId, subject }: Email): Email => ({ key, to, ticketId, subject });
const callOf = ({ key, answer }: Call) => ({ key, answer });

// The inbox, ticket by ticket: which email is missing, which ticket got two, which email is about no ticket.
export function inboxProblems(expected: Email[], actual: Email[], ticketIds: number[]): string[] {
	const problems: string[] = [];
	const tickets = [...new Set([...expected, ...actual].map((email) => email.ticketId))].sort((a, b) => a - b);
	for (const id of tickets) {
		const wanted = expected.filter((email) => email.ticketId === id).map(saidEmail);
		const got = actual.filter((email) => email.ticketId === id).map(saidEmail);
		if (sameLines(wanted, got)) continue;
		const list = (lines: string[]) => lines.map((line) => `\n      ${line}`).join('');
		if (got.length === 0) problems.push(`missing: the email ${wanted.join(', ')}`);
		else if (!ticketIds.includes(id))
			problems.push(
				`${got.length} email${got.length === 1 ? '' : 's'} about ticket #${id}, which does not exist:${list(got)}`
			);
		else if (got.length > wanted.length)
			problems.push(
				`doubled: ticket #${id} got ${got.length} emails where ${wanted.length} ${wanted.length === 1 ? 'was' : 'were'} expected:${list(got)}`
			);
		else
			problems.push(
				`ticket #${id} got another email than expected:\n    expected${list(wanted)}\n    delivered${list(got)}`
			);
	}
	return problems;
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
	// The states and the story, made only for a message.
	const tail = () =>
		`\n\nAfter the last step:\n${sideBySide(rows)}\n\nWhat happened:\n${played.story.join('\n')}`;
	const top = () => `${heading(schedule)}\nSteps:\n${tellSteps(schedule)}\n\n`;

	const at = firstDifference(
		expected.outcomes,
		played.outcomes,
		(a, b) => a.kind === b?.kind && a.ticketId === b?.ticketId
	);
	if (at >= 0) {
		const index = schedule.steps.map((s, i) => (s.do === 'deliver' ? i : -1)).filter((i) => i >= 0)[at]!;
		const wanted = saidOutcome(expected.outcomes[at]);
		const got = saidOutcome(played.outcomes[at]);
		return `${top()}${describeStep(schedule, index)}: expected ${wanted}, the handler ${got}.${tail()}`;
	}
	const ticketIds = committed.tickets.map((ticket) => ticket.id);
	const inbox = inboxProblems(expected.inbox, played.inbox.map(emailOf), ticketIds);
	if (inbox.length) return `${top()}The inbox is wrong:\n${inbox.map((p) => `  ${p}`).join('\n')}${tail()}`;
	const differ = rows.filter((row) => !sameLines(row.expected, row.actual)).map((row) => row.label);
	if (differ.length === 0) return null;
	return `${top()}Every answer and every email was right, but after the last step ${theyDiffer(differ)}.${tail()}`;
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
