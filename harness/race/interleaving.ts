// One interleaving of workers on the race's events, played, told and judged: what 03's property and the
// grader's sandbox play, each case handed in (the workers, their crashes, the scheduler's choices).
//
//   const run = await runPropertyCase(handleAtomically, workers, choices);
//   judgeOneTicketPerEvent(run, workers);   // what went wrong, or null
//   tellRun(run);                            // the run as a learner reads it: who did what, and what was left
//
// Nothing here draws: the cases are drawn with fast-check in explore.ts, so a sandbox that plays them loads none.
import { InMemoryDatabase, type Connection, type SharedDatabase } from '../database/database.ts';
import type { Outcome, Webhook } from '../core/model.ts';
import { answerOf, saidAnswer, stubIn, tellOutcome, type RaceHandler } from './play.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { fromNumbers, runWorkers, type Run, type WorkerPlan } from '../scheduler/scheduler.ts';
import { tellTrace } from '../scheduler/trace.ts';
import { sameEvent, saidIdentity } from '../core/identity.ts';
import { saidReceipt, saidTicket } from '../core/words.ts';

export const evt42: Webhook = {
	tenant: 'acme',
	source: 'helpdesk',
	eventId: 'evt-42',
	subject: 'Cannot sign in'
};
// The few identities the property draws from: a repeat, the same key with another request, another event,
// and the same event id from another tenant.
export const events: readonly Webhook[] = [
	evt42,
	{ ...evt42, subject: 'Cannot export report' },
	{ ...evt42, eventId: 'evt-43' },
	{ ...evt42, tenant: 'globex' }
];

export const workerNames = ['A', 'B', 'C', 'D'];

function afterTheRun(run: Run<Outcome, SharedDatabase>): string {
	const { tickets, receipts } = run.committed;
	const list = (lines: string[]) =>
		lines.length ? lines.map((line) => `    ${line}`).join('\n') : '    (none)';
	return `tickets:\n${list(tickets.map(saidTicket))}\nreceipts:\n${list(receipts.map(saidReceipt))}`;
}

// The readable story of one run: who did what, step by step, and what was left.
export function tellRun(run: Run<Outcome, SharedDatabase>): string {
	return `interleaving: ${run.steps.join(' ')}\n${tellTrace(run.trace)}\n\nAfter the run:\n${afterTheRun(run)}`;
}

export function stopAtStub(run: Run<Outcome>): void {
	const stub = stubIn(run);
	if (stub) throw new ScheduleMismatch(stub.message);
}

export type PropertyWorker = { event: Webhook; crashAfterOperations: number | null };

// One ticket per event identity, each with its receipt; every worker that did not crash answers with its
// event's ticket (created or replayed), or a conflict when the receipt's subject is not its subject.
export function judgeOneTicketPerEvent(run: Run<Outcome>, workers: readonly PropertyWorker[]): string | null {
	stopAtStub(run);
	const { tickets, receipts } = run.committed;
	const problems: string[] = [];
	for (const ticket of tickets) {
		const holders = receipts.filter((receipt) => receipt.ticketId === ticket.id);
		if (holders.length !== 1)
			problems.push(
				`ticket #${ticket.id} has ${holders.length} receipts (a ticket without one is a duplicate nobody can find)`
			);
	}
	// The last worker that answered created, for each event.
	const created: { event: Webhook; name: string }[] = [];
	workers.forEach((worker, i) => {
		const name = workerNames[i]!;
		const answer = answerOf(name, run.endings.get(name));
		if (answer.kind === 'crashed') return;
		const receipt = receipts.find((r) => sameEvent(r, worker.event));
		if (!receipt) {
			problems.push(`${name} ${saidAnswer(answer)}, but ${saidIdentity(worker.event)} has no receipt`);
			return;
		}
		const expected = receipt.subject === worker.event.subject ? `#${receipt.ticketId}` : 'conflict';
		const got =
			answer.kind === 'conflict' ? 'conflict' : answer.kind === 'failed' ? 'failed' : `#${answer.ticketId}`;
		if (got !== expected || answer.kind === 'failed')
			problems.push(
				`${name} ${saidAnswer(answer)}; ${saidIdentity(worker.event)} "${worker.event.subject}" should get ${expected === 'conflict' ? 'a conflict' : `ticket ${expected}`}`
			);
		if (answer.kind === 'created') {
			const earlier = created.find((c) => sameEvent(c.event, worker.event));
			if (!earlier) created.push({ event: worker.event, name });
			else {
				problems.push(`${earlier.name} and ${name} both answered created for ${saidIdentity(worker.event)}`);
				earlier.name = name;
			}
		}
	});
	return problems.length ? problems.join('; ') : null;
}

export async function runPropertyCase(
	handle: RaceHandler,
	workers: readonly PropertyWorker[],
	choices: readonly number[]
) {
	return runWorkers(new InMemoryDatabase(), propertyPlans(handle, workers), fromNumbers(choices), {
		tell: tellOutcome
	});
}

// The property's workers as the scheduler runs them: A, B, C, D, each handling its event, crashing where drawn.
export function propertyPlans(
	handle: RaceHandler,
	workers: readonly PropertyWorker[]
): WorkerPlan<Outcome>[] {
	return workers.map((worker, i) => ({
		name: workerNames[i]!,
		run: (conn: Connection) => handle(conn, { ...worker.event }),
		crash:
			worker.crashAfterOperations === null
				? null
				: { when: 'after-operations', count: worker.crashAfterOperations }
	}));
}

// One of the property's workers in words: 'B: acme/helpdesk/evt-42 "Cannot sign in", crashes after 3 operations'.
export const saidWorker = (worker: PropertyWorker, i: number) =>
	`${workerNames[i]}: ${saidIdentity(worker.event)} "${worker.event.subject}"${worker.crashAfterOperations === null ? '' : `, crashes after ${worker.crashAfterOperations} operations`}`;
