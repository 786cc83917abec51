import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UniqueViolation, type Connection } from '../database/database.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { inTurn, runWorkers, type WorkerPlan } from '../scheduler/scheduler.ts';
import { differ } from './differential.ts';
import { PostgresPlace } from './place.ts';

// Where the model could part from PostgreSQL with the outbox, and does what PostgreSQL does: each pinned by a
// run on both.
let place: PostgresPlace;
beforeAll(async () => {
	place = await PostgresPlace.create(inject('postgresUrl'));
});
afterAll(async () => {
	await place?.drop();
});

const row = (key: string, ticketId: number) => ({ key, tenant: 'acme', ticketId, to: 'acme', subject: 'Hi' });
const plan = (name: string, run: (conn: Connection) => Promise<unknown>): WorkerPlan<unknown> => ({
	name,
	run
});
// An insert whose key is taken: the worker hears the unique violation and goes on.
const tryToSave = async (conn: Connection, key: string, ticketId: number) => {
	try {
		await conn.saveOutbox(row(key, ticketId));
	} catch (error) {
		if (!(error instanceof UniqueViolation)) throw error;
	}
};
const inOneTransaction = (act: (conn: Connection) => Promise<unknown>, end: 'commit' | 'rollback') => {
	return async (conn: Connection) => {
		await conn.begin();
		try {
			await act(conn);
			await (end === 'commit' ? conn.commit() : conn.rollback());
		} catch (error) {
			// No worker hands its connection back inside a transaction (scheduler/left-open.ts).
			if (conn.inTransaction) await conn.rollback();
			throw error;
		}
	};
};

const cases: { name: string; plans: () => WorkerPlan<unknown>[]; turns: string[] }[] = [
	{
		name: 'an insert that hits the key has burned an outbox id',
		plans: () => [
			plan('A', (conn) => conn.saveOutbox(row('k1', 1))),
			plan('B', (conn) => tryToSave(conn, 'k1', 2)),
			plan('C', (conn) => conn.saveOutbox(row('k3', 3)))
		],
		turns: ['A', 'B', 'C']
	},
	{
		name: 'an insert that waits drew its id before waiting',
		plans: () => [
			plan(
				'A',
				inOneTransaction((conn) => conn.saveOutbox(row('k1', 1)), 'rollback')
			),
			plan('B', (conn) => conn.saveOutbox(row('k1', 2))),
			plan('C', (conn) => conn.saveOutbox(row('k3', 3)))
		],
		turns: ['A', 'B', 'C', 'A', 'B']
	},
	{
		name: 'marking a row that is already sent takes no lock, so nobody waits for it',
		plans: () => [
			plan('S', async (conn) => conn.markSent(await conn.saveOutbox(row('k1', 1)))),
			plan(
				'A',
				inOneTransaction((conn) => conn.markSent(1), 'commit')
			),
			plan('B', (conn) => conn.markSent(1))
		],
		turns: ['S', 'S', 'A', 'B', 'A']
	},
	{
		name: 'marking a row another open transaction has marked waits, then sees it sent',
		plans: () => [
			plan('S', (conn) => conn.saveOutbox(row('k1', 1))),
			plan(
				'A',
				inOneTransaction((conn) => conn.markSent(1), 'commit')
			),
			plan('B', (conn) => conn.markSent(1))
		],
		turns: ['S', 'A', 'B', 'A', 'B']
	},
	{
		name: 'pending rows are read by id, whatever order they were committed in',
		plans: () => [
			plan(
				'A',
				inOneTransaction((conn) => conn.saveOutbox(row('k1', 1)), 'commit')
			),
			plan(
				'B',
				inOneTransaction((conn) => conn.saveOutbox(row('k2', 2)), 'commit')
			),
			plan('C', (conn) => conn.pendingOutbox())
		],
		turns: ['A', 'B', 'B', 'A', 'C']
	}
];

describe('the outbox on the model and on PostgreSQL', () => {
	for (const { name, plans, turns } of cases) {
		it(name, async () => {
			const problem = await differ(
				`"${name}"`,
				plans,
				() => inTurn(turns),
				() => place.fresh()
			);
			if (problem) throw new ScheduleMismatch(problem);
		});
	}

	// The one difference left (database.ts's opening comment): which worker of a deadlock PostgreSQL fails is
	// its own choice, made by a timer. Both agree that exactly one fails and the other goes on.
	it('two transactions that lock two keys in opposite orders: one fails with DeadlockDetected, one commits', async () => {
		const crossing = (first: string, second: string) =>
			inOneTransaction(async (conn) => {
				await conn.saveOutbox(row(first, 1));
				await conn.saveOutbox(row(second, 2));
			}, 'commit');
		const db = await place.fresh();
		const run = await runWorkers(
			db,
			[plan('A', crossing('k1', 'k2')), plan('B', crossing('k2', 'k1'))],
			inTurn(['A', 'B', 'A', 'B'])
		);
		const endings = [...run.endings.values()].map((ending) =>
			ending.kind === 'failed' ? (ending.error as { code?: string }).code : ending.kind
		);
		expect(endings.sort()).toEqual(['answered', 'deadlock']);
		expect((await db.committed()).outbox.map((r) => r.key).sort()).toEqual(['k1', 'k2']);
	});
});
