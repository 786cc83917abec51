import { describe, expect, it } from 'vitest';
import type { Connection } from '../database/database.ts';
import type { Outcome, Webhook } from '../core/model.ts';
import { judgeRace, playRace } from './play.ts';
import { checkRaceProperty, exploreSameEvent, tellPropertyFailure } from './explore.ts';
import { judgePrediction, truth } from './prediction.ts';
import { loadRaceSchedule, raceSchedules } from './schedules.ts';
import { answerOf } from './play.ts';
import { exploreAll, type Run } from '../scheduler/scheduler.ts';
import { sameEventSetUp } from './explore.ts';
import { handleSeparately } from '../../exercises/03-the-race/separate.ts';
import { brokenCopy } from '../core/broken-copy.ts';
import { todo } from '../core/todo.ts';

const alternate = raceSchedules().find((s) => s.name === 'two-workers-alternate')!;
const problemWith = brokenCopy('race', 'two-workers-alternate', loadRaceSchedule);

// Plain handlers to hold the players to: one that never checks, one that answers nonsense.
async function alwaysCreates(db: Connection, event: Webhook): Promise<Outcome> {
	return { kind: 'created', ticketId: await db.saveTicket(event) };
}

describe('race schedule loading', () => {
	it('loads every race schedule', () => {
		expect(raceSchedules().length).toBeGreaterThanOrEqual(8);
	});
	it('names an interleaving entry that is not a worker', () => {
		expect(problemWith((s) => (s.interleaving[3] = 'C'))).toContain(
			'two-workers-alternate.json: interleaving[3]: "C" is not one of the workers (A, B)'
		);
	});
	it('names a crash point that is not an operation', () => {
		expect(problemWith((s) => (s.workers[0].crashAfter = 'lunch'))).toContain(
			'workers[0].crashAfter: must be one of'
		);
	});
	it('wants one answer per worker, in order, and an error only for failed', () => {
		expect(problemWith((s) => s.expect.atomic.answers.pop())).toContain(
			'expect.atomic.answers: 1 answers for 2 workers'
		);
		expect(problemWith((s) => s.expect.atomic.answers.reverse())).toContain(
			'expect.atomic.answers[0].worker: "B" should be A'
		);
		expect(problemWith((s) => delete s.expect.separate.answers[1].error)).toContain(
			'expect.separate.answers[1].error: a failed answer needs an error'
		);
		expect(problemWith((s) => (s.expect.atomic.answers[1].error = 'deadlock'))).toContain(
			'expect.atomic.answers[1].error: a replayed answer has no error'
		);
	});
	it('wants tickets listed by id', () => {
		expect(problemWith((s) => s.expect.separate.tickets.reverse())).toContain(
			'expect.separate.tickets[1].id: tickets are listed by id'
		);
	});
});

describe('judging a race', () => {
	it('names the schedule, the worker, what was expected, what the code did, and shows the trace', async () => {
		const message = judgeRace(alternate, 'atomic', await playRace(alternate, alwaysCreates));
		expect(message).toContain('Schedule "two-workers-alternate"');
		expect(message).toContain('Worker B: expected replayed #1, your code created #2; it ended at step 2');
		expect(message).toContain('1. A saves ticket #1 (acme: Cannot sign in), committed at once.');
		expect(message).toMatch(/≠ +#2 acme: Cannot sign in/);
	});
	it('says which ticket should not be there, and the step that saved it', async () => {
		const schedule = { ...alternate, expect: { ...alternate.expect } };
		schedule.expect.atomic = {
			...alternate.expect.atomic,
			answers: [
				{ worker: 'A', kind: 'created', ticketId: 1 },
				{ worker: 'B', kind: 'created', ticketId: 2 }
			]
		};
		const message = judgeRace(schedule, 'atomic', await playRace(schedule, alwaysCreates));
		expect(message).toContain('ticket #2 should not be there: it was saved at step 2 (B saves ticket #2');
	});
});

describe('the prediction', () => {
	const right = truth(alternate);
	it('reads what separate.ts leaves from the schedule', () => {
		expect(right).toEqual({ tickets: 2, receipts: 1, secondWorker: 'unique-violation' });
	});
	it('asks for a guess first, then nudges each part that is off without giving it away', () => {
		const blank = { tickets: undefined, receipts: undefined, secondWorker: undefined };
		expect(judgePrediction(blank, alternate)).toContain('Write your prediction first');
		const off = judgePrediction({ ...right, tickets: 1 }, alternate)!;
		expect(off).toContain('off in one place');
		expect(off).toContain('tickets: at step 2');
		expect(off).not.toContain('2 tickets');
		expect(off, 'one ticket, in the singular').toContain('(1 ticket, ');
		expect(judgePrediction({ ...right, secondWorker: 'crashed' as never }, alternate)).toContain(
			"secondWorker is one of 'created', 'replayed', 'conflict', 'unique-violation'"
		);
		expect(judgePrediction(right, alternate)).toBeNull();
	});
});

describe('the walks and the property have teeth', () => {
	it('every interleaving of a handler that never checks breaks', async () => {
		const explored = await exploreSameEvent(alwaysCreates, 2, { prune: false });
		expect(explored.complete).toBe(2);
		expect(explored.failed).toBe(2);
	});
	it('the property catches it, with a seed to replay', async () => {
		const failure = tellPropertyFailure(await checkRaceProperty(alwaysCreates, 50));
		expect(failure).toMatch(/RACE_SEED=-?\d+ RACE_PATH=/);
		expect(failure).toContain('has 0 receipts');
	});
	it('a stub is said as a stub, with no seed to replay', async () => {
		const stub = async (): Promise<Outcome> => todo('handleAtomically', '03-the-race/atomic.ts');
		const said = await checkRaceProperty(stub, 50).then(
			() => 'no error',
			(error: Error) => error.message
		);
		expect(said).toMatch(/^handleAtomically is not written yet\./);
		expect(said).not.toContain('RACE_SEED');
	});
});

describe('pruning is sound', () => {
	// Every ending (answers and committed rows) the full walk reaches, as text.
	async function endings(prune: boolean): Promise<string[]> {
		const seen = new Set<string>();
		const record = (run: Run<Outcome>) => {
			const answers = [...run.endings].map(([name, ending]) => answerOf(name, ending));
			seen.add(JSON.stringify([answers, run.db.committed()]));
			return null;
		};
		await exploreAll(sameEventSetUp(handleSeparately, 3), record, { prune });
		return [...seen].sort();
	}
	it(
		'three workers on separate.ts: the pruned walk reaches every ending the full one does',
		{ timeout: 60_000 },
		async () => {
			const full = await endings(false);
			expect(full.length).toBeGreaterThan(3);
			expect(await endings(true)).toEqual(full);
		}
	);
});
