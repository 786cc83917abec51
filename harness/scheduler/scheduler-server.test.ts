import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
	InMemoryDatabase,
	type Connection,
	type Gate,
	type MemoryConnection,
	type WorkerConnection
} from '../database/database.ts';
import { inTurn, runWorkers } from './scheduler.ts';

// A connection whose every answer comes back a few event-loop turns late, as a real server's does. With
// `busy`, it says so through `working`, as PostgresConnection does; without, it is a worker waiting on
// something the scheduler can't see.
class LateConnection implements WorkerConnection {
	working: Promise<void> | null = null;
	constructor(
		private readonly inner: MemoryConnection,
		private readonly busy: boolean
	) {}
	get worker() {
		return this.inner.worker;
	}
	get inTransaction() {
		return this.inner.inTransaction;
	}
	get done() {
		return this.inner.done;
	}
	get heard() {
		return this.inner.heard;
	}
	private async late<T>(answer: Promise<T>): Promise<T> {
		const value = await answer;
		const wire = (async () => {
			for (let turn = 0; turn < 50; turn++) await nextTurn();
		})();
		if (this.busy) this.working = wire;
		await wire;
		this.working = null;
		return value;
	}
	begin = () => this.late(this.inner.begin());
	commit = () => this.late(this.inner.commit());
	rollback = () => this.late(this.inner.rollback());
	findReceipt: Connection['findReceipt'] = (event) => this.late(this.inner.findReceipt(event));
	findTicket: Connection['findTicket'] = (id) => this.late(this.inner.findTicket(id));
	saveTicket: Connection['saveTicket'] = (draft) => this.late(this.inner.saveTicket(draft));
	saveReceipt: Connection['saveReceipt'] = (receipt) => this.late(this.inner.saveReceipt(receipt));
	saveOutbox: Connection['saveOutbox'] = (draft) => this.late(this.inner.saveOutbox(draft));
	pendingOutbox: Connection['pendingOutbox'] = () => this.late(this.inner.pendingOutbox());
	markSent: Connection['markSent'] = (id) => this.late(this.inner.markSent(id));
	outside<T>(name: string, act: () => T | Promise<T>): Promise<T> {
		return this.inner.outside(name, act);
	}
	close(why: string): void {
		this.inner.close(why);
	}
}

class LateDatabase extends InMemoryDatabase {
	constructor(private readonly busy: boolean) {
		super();
	}
	override connect(worker: string, gate: Gate): MemoryConnection {
		return new LateConnection(super.connect(worker, gate), this.busy) as unknown as MemoryConnection;
	}
}

const twoTickets = async (conn: Connection) => {
	await conn.begin();
	const id = await conn.saveTicket({ tenant: 'acme', subject: 'Cannot sign in' });
	await conn.commit();
	return id;
};
const plans = [
	{ name: 'A', run: twoTickets },
	{ name: 'B', run: twoTickets }
];

describe('runWorkers with a database that answers late, as a real server does', () => {
	it('waits for a statement the connection says is on the wire, and keeps the schedule', async () => {
		const run = await runWorkers(new LateDatabase(true), plans, inTurn(['A', 'B', 'B', 'A']));
		expect(run.steps).toEqual(['A', 'B', 'B', 'A']);
		expect(Object.fromEntries([...run.endings].map(([name, e]) => [name, e]))).toEqual({
			A: { kind: 'answered', value: 1 },
			B: { kind: 'answered', value: 2 }
		});
		expect(run.committed.tickets.map((t) => t.id)).toEqual([1, 2]);
	});

	it('still stops a worker that waits on something it does not declare', async () => {
		await expect(runWorkers(new LateDatabase(false), plans, inTurn(['A', 'B']))).rejects.toThrow(
			/A is waiting for something that is not a database operation/
		);
	});
});
