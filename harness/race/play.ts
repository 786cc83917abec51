// Plays race schedules (and the handler schedules, one delivery at a time) against an async handler that
// talks to the shared database, and says where the run went another way, with the trace that shows it.
import { describe, it } from 'vitest';
import { DatabaseError, type Connection, type Contents, type SharedDatabase } from '../database/database.ts';
import { handlerScheduleGroups, type HandlerName, type HandlerSchedule } from '../handler/schedules.ts';
import type { Located } from '../core/schedules.ts';
import type { Fault, Outcome, Webhook } from '../core/model.ts';
import { judgeHandler } from '../handler/play.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { openDatabase } from '../database/open-database.ts';
import { plays } from '../core/plays.ts';
import {
	raceSchedules,
	type Answer,
	type ErrorName,
	type RaceImplementation,
	type RaceSchedule,
	type RaceWorker
} from './schedules.ts';
import { firstDifference, sideBySide } from '../core/report.ts';
import {
	inTurn,
	LeftOpen,
	oneAtATime,
	runWorkers,
	type CrashPoint,
	type Ending,
	type Pick as PickNext,
	type Run
} from '../scheduler/scheduler.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { tellTrace, type TraceLine } from '../scheduler/trace.ts';
import { briefly, describeDelivery, saidOutcome, saidReceipt, saidTicket } from '../core/words.ts';
import { running } from '../core/watchdog.ts';

// A handler as exercise 03 writes it: one delivery, on one worker's connection to the shared database.
export type RaceHandler = (conn: Connection, event: Webhook) => Promise<Outcome>;

export const tellOutcome = (outcome: Outcome) => `answers ${saidOutcome(outcome)}`;

export function errorName(error: unknown): ErrorName {
	return error instanceof DatabaseError ? error.code : 'other';
}

export function answerOf(worker: string, ending: Ending<Outcome> | undefined): Answer {
	if (ending?.kind === 'answered') {
		const { kind, ticketId } = ending.value ?? {};
		return { worker, kind, ticketId } as Answer;
	}
	if (ending?.kind === 'failed')
		return { worker, kind: 'failed', ticketId: null, error: errorName(ending.error) };
	return { worker, kind: 'crashed', ticketId: null };
}

const errorWords: Record<ErrorName, string> = {
	'unique-violation': 'a unique violation',
	'transaction-aborted': 'TransactionAborted (a call after an error, before the rollback)',
	deadlock: 'a deadlock',
	misuse: 'a misuse of the database',
	other: 'an error'
};

export function saidAnswer(answer: Answer | undefined): string {
	if (answer?.kind === 'failed') return `failed with ${errorWords[answer.error ?? 'other']}`;
	return saidOutcome(answer ? { kind: answer.kind, ticketId: answer.ticketId } : undefined);
}

const sameAnswer = (a: Answer, b: Answer) =>
	a.worker === b.worker && a.kind === b.kind && a.ticketId === b.ticketId && a.error === b.error;

// A worker's crash point in a schedule, in the scheduler's terms.
export function crashOf(worker: RaceWorker): CrashPoint | null {
	return worker.crashAfter ? { when: 'after', operation: worker.crashAfter } : null;
}

export type RacePlayed = { run: Run<Outcome, SharedDatabase>; answers: Answer[]; contents: Contents };

export async function playRace(
	schedule: RaceSchedule,
	handle: RaceHandler,
	pick?: PickNext
): Promise<RacePlayed> {
	const db = await openDatabase();
	const plans = schedule.workers.map((worker) => ({
		name: worker.name,
		run: (conn: Connection) => handle(conn, { ...worker.event }),
		crash: crashOf(worker)
	}));
	const run = await runWorkers(db, plans, pick ?? inTurn(schedule.interleaving), { tell: tellOutcome });
	const answers = schedule.workers.map((worker) => answerOf(worker.name, run.endings.get(worker.name)));
	return { run, answers, contents: await db.committed() };
}

// The first handler error that is a stub not written yet, so the learner reads the todo, not a trace.
export function stubIn(run: Run<unknown, SharedDatabase>): NotWrittenYet | null {
	for (const ending of run.endings.values())
		if (ending.kind === 'failed' && ending.error instanceof NotWrittenYet) return ending.error;
	return null;
}

// "step 4 (B saves ticket #2 …)" for the first line that matches; "step 4" alone when the trace that follows
// tells that step anyway.
function stepWhere(
	trace: readonly TraceLine[],
	matches: (line: TraceLine) => boolean,
	{ told = false } = {}
): string {
	const line = trace.find(matches);
	if (!line) return 'no step';
	return told ? `step ${line.step || 'start'}` : `step ${line.step || 'start'} (${line.text})`;
}

function raceHeading(schedule: RaceSchedule): string {
	const said = briefly(schedule.workers.map((w) => w.event));
	const workers = schedule.workers
		.map(
			(w) =>
				`${w.name}: ${said(w.event)} "${w.event.subject}"${w.crashAfter ? `, crashes after ${w.crashAfter}` : ''}`
		)
		.join('; ');
	return `Schedule "${schedule.name}" (${schedule.title}): ${schedule.story}\nWorkers: ${workers}.`;
}

export function stateTable(expected: Pick<Contents, 'tickets' | 'receipts'>, actual: Contents): string {
	return sideBySide([
		{ label: 'tickets', expected: expected.tickets.map(saidTicket), actual: actual.tickets.map(saidTicket) },
		{
			label: 'receipts',
			expected: expected.receipts.map(saidReceipt),
			actual: actual.receipts.map(saidReceipt)
		}
	]);
}

// null when the run did what the schedule expects of this implementation; otherwise the message to read.
export function judgeRace(
	schedule: RaceSchedule,
	implementation: RaceImplementation,
	played: RacePlayed
): string | null {
	const expected = schedule.expect[implementation];
	const { trace } = played.run;
	const story = `\n\nWhat happened, step by step:\n${tellTrace(trace)}\n\nAfter the run:\n${stateTable(expected, played.contents)}`;
	const at = firstDifference(expected.answers, played.answers, sameAnswer);
	if (at >= 0) {
		const want = expected.answers[at]!;
		const got = played.answers[at];
		const ended = stepWhere(
			trace,
			(line) =>
				line.worker === want.worker &&
				line.text.startsWith(`${want.worker} `) &&
				/answers|stops with|crashes/.test(line.text),
			{ told: true }
		);
		return `${raceHeading(schedule)}\nWorker ${want.worker}: expected ${saidAnswer(want)}, your code ${saidAnswer(got)}; it ended at ${ended}.${story}`;
	}
	const wantIds = expected.tickets.map((t) => t.id);
	const gotIds = played.contents.tickets.map((t) => t.id);
	const extra = gotIds.filter((id) => !wantIds.includes(id));
	const missing = wantIds.filter((id) => !gotIds.includes(id));
	const problems = [
		...extra.map(
			(id) =>
				`ticket #${id} should not be there: it was saved at ${stepWhere(trace, (line) => line.text.includes(`saves ticket #${id} `))}, and never rolled back.`
		),
		...missing.map((id) => `ticket #${id} is missing.`)
	];
	const ticketsSaid = (contents: Pick<Contents, 'tickets'>) => contents.tickets.map(saidTicket).join('\n');
	const receiptsSaid = (contents: Pick<Contents, 'receipts'>) =>
		contents.receipts.map(saidReceipt).join('\n');
	if (!problems.length && ticketsSaid(expected) !== ticketsSaid(played.contents))
		problems.push('the tickets differ.');
	if (receiptsSaid(expected) !== receiptsSaid(played.contents)) problems.push('the receipts differ.');
	if (!problems.length) return null;
	return `${raceHeading(schedule)}\nEvery worker answered as expected, but after the run ${problems.join(' ')}${story}`;
}

// One test for each race schedule, holding the handler to one column of expectations.
export function playRaceSchedules(implementation: RaceImplementation, handle: RaceHandler): void {
	describe(`the race schedules, as ${implementation}`, () => {
		for (const schedule of raceSchedules()) {
			it(schedule.title, plays(schedule, implementation), async () => {
				const played = await playRace(schedule, handle).catch((error: unknown) => {
					if (!(error instanceof LeftOpen) || !error.committed) throw error;
					const table = stateTable(schedule.expect[implementation], error.committed);
					throw error.within(raceHeading(schedule), `\n\nAfter the run:\n${table}`);
				});
				const stub = stubIn(played.run);
				if (stub) throw new ScheduleMismatch(`${stub.message}\n(stopped at schedule "${schedule.name}")`);
				const problem = judgeRace(schedule, implementation, played);
				if (problem) throw new ScheduleMismatch(problem);
			});
		}
	});
}

// The handler schedules' faults as crash points: 'before-commit' dies before the worker writes anything (so
// no ticket number is used up, as those schedules expect); 'after-commit' dies after all its work, before it
// answers. The race schedules crash inside a transaction, where a number is burned.
export function crashForFault(fault: Fault): CrashPoint | null {
	if (fault === 'before-commit') return { when: 'before-write' };
	if (fault === 'after-commit') return { when: 'before-answering' };
	return null;
}

// Each delivery of a handler schedule is one worker, run to its end before the next starts.
export async function playDeliveries(
	schedule: HandlerSchedule,
	handle: RaceHandler
): Promise<{ outcomes: Outcome[]; db: SharedDatabase }> {
	const db = await openDatabase();
	const outcomes: Outcome[] = [];
	for (const [i, delivery] of schedule.deliveries.entries()) {
		const name = String.fromCharCode(65 + i);
		running(`${describeDelivery(schedule, i)} of schedule "${schedule.name}" (worker ${name})`);
		const plan = {
			name,
			run: (conn: Connection) => handle(conn, { ...delivery.event }),
			crash: crashForFault(delivery.fault)
		};
		const where = `${describeDelivery(schedule, i)} of schedule "${schedule.name}" (worker ${name})`;
		const run = await runWorkers(db, [plan], oneAtATime(), { tell: tellOutcome }).catch((error: unknown) => {
			throw error instanceof LeftOpen ? error.within(`${where}:`) : error;
		});
		const ending = run.endings.get(name)!;
		if (ending.kind === 'failed') {
			if (ending.error instanceof NotWrittenYet)
				throw new ScheduleMismatch(`${ending.error.message}\n(stopped at ${where})`);
			const why = ending.error instanceof Error ? ending.error.message : String(ending.error);
			throw new ScheduleMismatch(
				`${where}: your handler stopped with an error: ${why}\n\nWhat happened:\n${tellTrace(db.trace)}`
			);
		}
		outcomes.push(ending.kind === 'answered' ? ending.value : { kind: 'crashed', ticketId: null });
	}
	return { outcomes, db };
}

// The handler schedules, one delivery at a time, held to one column of their expectations: the lesson's
// nine, then the ones beyond them.
export function playHandlerSchedulesOneAtATime(name: HandlerName, handle: RaceHandler): void {
	const { lesson, beyond } = handlerScheduleGroups();
	const play = (schedule: HandlerSchedule & Located) =>
		it(schedule.title, plays(schedule, name), async () => {
			const { outcomes, db } = await playDeliveries(schedule, handle);
			const problem = judgeHandler(schedule, name, { outcomes, db: await db.committed() });
			if (problem) throw new ScheduleMismatch(`${problem}\n\nWhat happened:\n${tellTrace(db.trace)}`);
		});
	describe(`the handler schedules, one delivery at a time, as ${name}`, () => lesson.forEach(play));
	describe(`beyond the lesson's nine, one delivery at a time, as ${name}`, () => beyond.forEach(play));
}
