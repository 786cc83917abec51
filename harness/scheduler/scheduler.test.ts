import { describe, expect, it } from 'vitest';
import { InMemoryDatabase, UniqueViolation, type Connection } from '../database/database.ts';
import type { Webhook } from '../core/model.ts';
import {
	exploreAll,
	fromNumbers,
	inTurn,
	LeftOpen,
	oneAtATime,
	runWorkers,
	type CrashPoint,
	type Ending
} from './scheduler.ts';
import { tellTrace } from './trace.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };

// Check, then save, each its own commit: the race the workbook is about.
async function checkThenSave(conn: Connection): Promise<number> {
	const seen = await conn.findReceipt(evt42);
	if (seen) return seen.ticketId;
	const id = await conn.saveTicket(evt42);
	await conn.saveReceipt({ ...evt42, ticketId: id });
	return id;
}

// The ticket and the receipt in one transaction: the second worker's insert waits, then fails, and rolls back.
async function inOneTransaction(conn: Connection): Promise<number> {
	await conn.begin();
	try {
		const id = await conn.saveTicket(evt42);
		await conn.saveReceipt({ ...evt42, ticketId: id });
		await conn.commit();
		return id;
	} catch (error) {
		await conn.rollback();
		throw error;
	}
}

const two = (run: (conn: Connection) => Promise<number>, crash?: CrashPoint) => [
	{ name: 'A', run, crash: crash ?? null },
	{ name: 'B', run }
];
const kinds = (endings: Map<string, Ending<number>>) =>
	Object.fromEntries([...endings].map(([name, e]) => [name, e.kind === 'answered' ? e.value : e.kind]));
const texts = (db: InMemoryDatabase) => db.trace.map((line) => line.text);

describe('runWorkers', () => {
	it('runs the operations in the order the interleaving names, and the trace tells it', async () => {
		const db = new InMemoryDatabase();
		const run = await runWorkers(db, two(checkThenSave), inTurn(['A', 'B', 'A', 'B', 'A', 'B']));
		expect(run.steps).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
		expect(run.endings.get('A')).toEqual({ kind: 'answered', value: 1 });
		expect(run.endings.get('B')).toMatchObject({ kind: 'failed', error: expect.any(UniqueViolation) });
		expect(db.committed().tickets.map((t) => t.id)).toEqual([1, 2]);
		const told = tellTrace(run.trace);
		expect(told).toContain('1. A looks for a receipt for acme/helpdesk/evt-42: none.');
		expect(told).toContain('2. B looks for a receipt for acme/helpdesk/evt-42: none.');
		expect(told).toContain('B saves the receipt acme/helpdesk/evt-42 → #2: unique violation');
	});

	it('is repeatable: the same interleaving gives the same trace, line for line', async () => {
		const play = async () => {
			const db = new InMemoryDatabase();
			await runWorkers(db, two(checkThenSave), inTurn(['B', 'A', 'A', 'B']));
			return tellTrace(db.trace);
		};
		expect(await play()).toEqual(await play());
	});

	it('passes over a finished worker, then runs the rest in the order declared', async () => {
		const db = new InMemoryDatabase();
		const run = await runWorkers(db, two(checkThenSave), inTurn(['A', 'A', 'A', 'A', 'A', 'B']));
		expect(run.steps).toEqual(['A', 'A', 'A', 'B']);
		expect(kinds(run.endings)).toEqual({ A: 1, B: 1 });
	});

	it('a second insert of an open transaction’s key waits, then fails when that one commits', async () => {
		const db = new InMemoryDatabase();
		const run = await runWorkers(db, two(inOneTransaction), inTurn(['A', 'B', 'A', 'B', 'B', 'A', 'B']));
		// B's receipt is picked at step 4 and waits; B's later turn is passed over until A commits. Then B's
		// insert fails, and its rollback is a step of its own.
		expect(run.steps).toEqual(['A', 'B', 'A', 'B', 'A', 'B', 'B']);
		expect(texts(db)).toContain(
			"B saves the receipt acme/helpdesk/evt-42 → #2: A's open transaction has the same key, so B waits for it to end."
		);
		expect(run.endings.get('B')).toMatchObject({ kind: 'failed', error: expect.any(UniqueViolation) });
		expect(db.committed().tickets.map((t) => t.id)).toEqual([1]);
	});

	it('a waiting insert goes ahead when the other transaction dies instead', async () => {
		const db = new InMemoryDatabase();
		const crash: CrashPoint = { when: 'after', operation: 'save-receipt' };
		const run = await runWorkers(
			db,
			two(inOneTransaction, crash),
			inTurn(['A', 'B', 'A', 'B', 'A', 'B', 'B'])
		);
		expect(kinds(run.endings)).toEqual({ A: 'crashed', B: 2 });
		expect(run.steps).toEqual(['A', 'B', 'A', 'B', 'A', 'B', 'B']);
		expect(tellTrace(run.trace)).toMatch(
			/4\. B saves the receipt .* waits for it to end\.\n\s+5\. A crashes\./
		);
		expect(texts(db)).toContain(
			'A crashes. Its transaction rolls back: ticket #1 and receipt acme/helpdesk/evt-42 → #1 are gone.'
		);
		expect(db.committed().receipts).toEqual([{ ...evt42, ticketId: 2 }]);
	});

	it('a crash inside a transaction leaves nothing; one between separate commits leaves what was committed', async () => {
		const crash: CrashPoint = { when: 'after', operation: 'save-ticket' };
		const atomic = new InMemoryDatabase();
		await runWorkers(atomic, [{ name: 'A', run: inOneTransaction, crash }], oneAtATime());
		expect(atomic.committed().tickets).toEqual([]);
		const separate = new InMemoryDatabase();
		await runWorkers(separate, [{ name: 'A', run: checkThenSave, crash }], oneAtATime());
		expect(separate.committed().tickets.map((t) => t.id)).toEqual([1]);
		expect(separate.committed().receipts).toEqual([]);
	});

	it('a crash after the nth operation of a name: the relay dies after its second email, before marking it', async () => {
		const db = new InMemoryDatabase();
		const sent: string[] = [];
		const relay = async (conn: Connection) => {
			for (const key of ['k1', 'k2', 'k3']) {
				await conn.outside('send-email', () => sent.push(key));
				await conn.findReceipt(evt42);
			}
		};
		const crash: CrashPoint = { when: 'after', operation: 'send-email', nth: 2 };
		const run = await runWorkers(db, [{ name: 'R', run: relay, crash }], oneAtATime());
		expect(run.endings.get('R')).toEqual({ kind: 'crashed' });
		expect(sent).toEqual(['k1', 'k2']);
		expect(db.trace.filter((line) => line.text.startsWith('R looks for a receipt'))).toHaveLength(1);
	});

	it('crash points: before the first durable write, after n operations, before answering', async () => {
		const play = async (crash: CrashPoint) => {
			const db = new InMemoryDatabase();
			const run = await runWorkers(db, [{ name: 'A', run: checkThenSave, crash }], oneAtATime());
			return {
				ending: run.endings.get('A'),
				tickets: db.committed().tickets.length,
				steps: run.steps.length
			};
		};
		// A crash takes the worker's turn, so it is a step of its own.
		expect(await play({ when: 'before-commit' })).toEqual({
			ending: { kind: 'crashed' },
			tickets: 0,
			steps: 2
		});
		expect(await play({ when: 'before-write' })).toMatchObject({ tickets: 0, steps: 2 });
		expect(await play({ when: 'after-operations', count: 0 })).toMatchObject({ tickets: 0, steps: 1 });
		expect(await play({ when: 'after-operations', count: 2 })).toMatchObject({ tickets: 1, steps: 3 });
		expect(await play({ when: 'before-answering' })).toEqual({
			ending: { kind: 'crashed' },
			tickets: 1,
			steps: 3
		});
	});

	it('a worker that answers with its transaction open has it rolled back, and the run throws LeftOpen', async () => {
		const db = new InMemoryDatabase();
		const forgets = async (conn: Connection) => {
			await conn.begin();
			return conn.saveTicket(evt42);
		};
		const run = runWorkers(db, [{ name: 'A', run: forgets }], oneAtATime(), {
			tell: (id) => `answers #${id}`
		});
		await expect(run).rejects.toThrow(LeftOpen);
		await expect(run).rejects.toThrow(
			'Worker A: your handler answered with its transaction still open (A answers #1).\nUsually a return or a throw before commit or rollback.'
		);
		expect(texts(db)).toContain('A answers #1. Its transaction rolls back: ticket #1 is gone.');
		expect(db.committed().tickets).toEqual([]);
	});

	it('a worker that throws with its transaction open: LeftOpen, once every worker has ended', async () => {
		const db = new InMemoryDatabase();
		const throwsInside = async (conn: Connection) => {
			await conn.begin();
			await conn.saveTicket(evt42);
			throw new Error('no rollback on the way out');
		};
		const plans = [
			{ name: 'A', run: throwsInside },
			{ name: 'B', run: checkThenSave }
		];
		const run = runWorkers(db, plans, oneAtATime());
		await expect(run).rejects.toThrow(
			'Worker A: your handler stopped with an error with its transaction still open (A stops with an error: no rollback on the way out).'
		);
		expect(texts(db).at(-1)).toMatch(/^B answers 2\./);
	});

	it('a crash inside a transaction is not leaving it open: the worker never returned', async () => {
		const crash: CrashPoint = { when: 'before-answering' };
		const forgets = async (conn: Connection) => {
			await conn.begin();
			return conn.saveTicket(evt42);
		};
		const run = await runWorkers(new InMemoryDatabase(), [{ name: 'A', run: forgets, crash }], oneAtATime());
		expect(run.endings.get('A')).toEqual({ kind: 'crashed' });
	});

	it('detects a deadlock and fails the worker that would close the cycle', async () => {
		const db = new InMemoryDatabase();
		const receipt = (eventId: string) => ({ ...evt42, eventId, ticketId: 1 });
		const both = (first: string, second: string) => async (conn: Connection) => {
			await conn.begin();
			try {
				await conn.saveReceipt(receipt(first));
				await conn.saveReceipt(receipt(second));
				await conn.commit();
				return 0;
			} catch (error) {
				await conn.rollback();
				throw error;
			}
		};
		const run = await runWorkers(
			db,
			[
				{ name: 'A', run: both('e1', 'e2') },
				{ name: 'B', run: both('e2', 'e1') }
			],
			inTurn(['A', 'B', 'A', 'B'])
		);
		expect(run.endings.get('B')).toMatchObject({ kind: 'failed', error: { code: 'deadlock' } });
		expect(run.endings.get('A')).toEqual({ kind: 'answered', value: 0 });
	});

	it('a worker that makes two calls at once is told to await each before the next', async () => {
		const both = async (conn: Connection) => {
			const [seen] = await Promise.all([conn.findReceipt(evt42), conn.saveTicket(evt42)]);
			return seen?.ticketId ?? 0;
		};
		const run = await runWorkers(new InMemoryDatabase(), [{ name: 'A', run: both }], oneAtATime());
		expect(run.endings.get('A')).toMatchObject({
			kind: 'failed',
			error: {
				message: expect.stringMatching(
					/A asked for save-ticket while another of its calls was still waiting its turn.*await each call before the next/
				)
			}
		});
	});

	it('stops a worker that waits on something other than the database', async () => {
		let release = () => {};
		const gate = new Promise<void>((resolve) => (release = resolve));
		const waitsInMemory = async (conn: Connection) => {
			await gate;
			return checkThenSave(conn);
		};
		await expect(
			runWorkers(new InMemoryDatabase(), [{ name: 'A', run: waitsInMemory }], oneAtATime())
		).rejects.toThrow(/A is waiting for something that is not a database operation/);
		release();
	});

	it('a pick that names a worker that cannot run is an error, and null stops the run', async () => {
		await expect(runWorkers(new InMemoryDatabase(), two(checkThenSave), () => 'C')).rejects.toThrow(
			"the pick chose C, which can't run now (can run: A, B)"
		);
		const run = await runWorkers(new InMemoryDatabase(), two(checkThenSave), ({ step }) =>
			step > 2 ? null : 'A'
		);
		expect(run).toMatchObject({ stopped: true, steps: ['A', 'A'] });
		expect(run.endings.get('B')).toEqual({ kind: 'stopped' });
	});

	it('fromNumbers picks among the workers that can run', async () => {
		const run = await runWorkers(new InMemoryDatabase(), two(checkThenSave), fromNumbers([1, 1, 0, 3]));
		expect(run.steps.slice(0, 4)).toEqual(['B', 'B', 'A', 'B']);
	});
});

describe('exploreAll', () => {
	const setUp =
		(run: (conn: Connection) => Promise<number>, workers = 2) =>
		() => ({
			db: new InMemoryDatabase(),
			plans: ['A', 'B', 'C'].slice(0, workers).map((name) => ({ name, run }))
		});
	const oneTicket = (run: { db: InMemoryDatabase }) =>
		run.db.committed().tickets.length === 1 ? null : `${run.db.committed().tickets.length} tickets`;
	const ends = async (prune: boolean) => {
		const seen = new Set<string>();
		await exploreAll(
			setUp(checkThenSave),
			(run) => {
				seen.add(JSON.stringify([kinds(run.endings), run.db.committed()]));
				return null;
			},
			{ prune }
		);
		return seen;
	};

	it('without pruning, runs every interleaving: 6 steps, 3 each, is 20', async () => {
		const explored = await exploreAll(setUp(checkThenSave), oneTicket, { prune: false });
		expect(explored).toMatchObject({ runs: 20, complete: 20, pruned: 0 });
		expect(explored.failed).toBeGreaterThan(0);
		expect(explored.failures[0]!.problem).toBe('2 tickets');
	});

	it('pruning reaches every ending the full walk reaches, in fewer runs', async () => {
		expect([...(await ends(true))].sort()).toEqual([...(await ends(false))].sort());
	});

	it('stops at the first failure when asked', async () => {
		const explored = await exploreAll(setUp(checkThenSave, 3), oneTicket, { stopAtFirstFailure: true });
		expect(explored.failed).toBe(1);
		expect(explored.failures[0]!.run.steps.length).toBeGreaterThan(0);
	});

	it('a run a worker left inside its transaction is a failure: the judge says its problem, then that', async () => {
		const forgets = async (conn: Connection) => {
			await conn.begin();
			return conn.saveTicket(evt42);
		};
		const explored = await exploreAll(setUp(forgets), oneTicket, { prune: false });
		expect(explored.failed).toBe(explored.complete);
		expect(explored.failures[0]!.problem).toBe(
			'0 tickets\nWorker A: your handler answered with its transaction still open (A answers 1).\nUsually a return or a throw before commit or rollback. On a real server the connection goes back idle in transaction, and the next delivery on it waits or runs inside it.'
		);
		expect(explored.failures[0]!.run.steps.length).toBeGreaterThan(0);
	});
});

describe('crash points inside a transaction', () => {
	it('before-write strikes before anything is saved; before-commit after, burning the ticket number', async () => {
		const play = async (crash: CrashPoint) => {
			const db = new InMemoryDatabase();
			await runWorkers(db, [{ name: 'A', run: inOneTransaction, crash }], oneAtATime());
			await runWorkers(db, [{ name: 'B', run: inOneTransaction }], oneAtATime());
			return db.committed().tickets.map((t) => t.id);
		};
		expect(await play({ when: 'before-write' })).toEqual([1]);
		expect(await play({ when: 'before-commit' })).toEqual([2]);
	});
});
