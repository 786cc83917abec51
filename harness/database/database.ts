// An in-memory database that behaves like PostgreSQL where this workbook needs it to.
//
//   const db = new InMemoryDatabase();
//   const conn = db.connect('A');            // one connection per worker; runWorkers() (scheduler.ts) makes them
//   await conn.begin();                      // not a scheduling point: BEGIN changes nothing anyone else sees
//   await conn.findReceipt(event);           // Receipt | null: committed rows plus this transaction's own
//   await conn.saveTicket({ tenant, subject }); // the new id, from a sequence: a rolled-back insert burns it
//   await conn.saveReceipt({ ...event, ticketId }); // unique on (tenant, source, eventId), field by field
//   await conn.findTicket(id);               // Ticket | null
//   await conn.saveOutbox({ key, tenant, ticketId, to, subject }); // id from a sequence; key unique
//   await conn.pendingOutbox();              // OutboxRow[] whose state is 'pending', oldest first
//   await conn.markSent(id);                 // true if this changed it from pending to sent; waits on a row
//                                            // another open transaction has marked, then sees its result
//   await conn.outside('send-email', () => provider.send(...)); // a step outside the database, traced too
//   await conn.commit();  await conn.rollback();  conn.inTransaction; // whether one is open
//   db.committed();                          // { tickets, receipts, outbox }: a copy of what was committed
//   db.trace;                                // TraceLine[] (trace.ts): sentences for every operation
//
// Outside a transaction each operation commits on its own (autocommit). Inside one, writes stay private until
// commit and vanish on rollback or when the worker crashes. Unique keys: inserting a key that is committed
// throws UniqueViolation; inserting a key that another open transaction has inserted waits until that
// transaction ends, then throws UniqueViolation if it committed, or goes ahead if it rolled back. Any error
// inside a transaction aborts it: every later operation throws TransactionAborted until rollback. A wait that
// would close a cycle throws DeadlockDetected. Every operation but begin is a point where the scheduler may
// run another worker first; errors carry a code ('unique-violation', 'transaction-aborted', 'deadlock',
// 'misuse') so schedules can name them.
//
// Checked against PostgreSQL (postgres/connection.ts serves the same Connection): postgres/differential.test.ts
// plays every race schedule and a seeded sample of random interleavings on both, and they must tell the same
// trace, line for line, and commit the same rows. Where the model once differed it now does what PostgreSQL
// does: committed rows are listed by id (a table has no order), an outbox insert draws its id before it meets
// the key (so one that fails or waits has burned it), and marking a row it can't see or sees sent takes no
// lock. One difference is left, pinned in postgres/outbox-differential.test.ts: in a deadlock the model fails
// the worker whose wait closes the cycle, while PostgreSQL fails whichever its deadlock timer picks.
import type { Receipt, Ticket } from '../core/model.ts';
import type { TraceLine } from '../scheduler/trace.ts';
import { sameEvent, saidIdentity, type EventIdentity } from '../core/identity.ts';
import { DeadlockDetected, TransactionAborted, UniqueViolation } from './errors.ts';
import { ConnectionBookkeeping, droppedSentence, listed } from './bookkeeping.ts';

export type OutboxState = 'pending' | 'sent';
// A row saying what to send after the commit, under the email's own idempotency key.
export type OutboxRow = {
	id: number;
	key: string;
	tenant: string;
	ticketId: number;
	to: string;
	subject: string;
	state: OutboxState;
};
export type OutboxDraft = Omit<OutboxRow, 'id' | 'state'>;
export type TicketDraft = Omit<Ticket, 'id'>;
export type { EventIdentity };
export type Contents = { tickets: Ticket[]; receipts: Receipt[]; outbox: OutboxRow[] };

export type OperationName =
	| 'find-receipt'
	| 'save-ticket'
	| 'save-receipt'
	| 'find-ticket'
	| 'save-outbox'
	| 'pending-outbox'
	| 'mark-sent'
	| 'commit'
	| 'rollback';
export const operationNames: readonly OperationName[] = [
	'find-receipt',
	'save-ticket',
	'save-receipt',
	'find-ticket',
	'save-outbox',
	'pending-outbox',
	'mark-sent',
	'commit',
	'rollback'
];

// What a worker asks the scheduler for. writes: it saves or changes a row (committed or not), where a
// 'before-write' crash strikes. commits: doing it makes a write durable (a commit with writes, or a write
// outside a transaction), where a 'before-commit' crash strikes.
export type Operation = { name: string; writes: boolean; commits: boolean };

// The scheduler's side of a connection: turn() resolves when the worker may run its next operation.
export interface Gate {
	turn(worker: string, operation: Operation): Promise<void>;
}
const noGate: Gate = { turn: () => Promise.resolve() };

// What a worker's code calls. The in-memory database and PostgreSQL (postgres/connection.ts) both serve it,
// so a handler runs unchanged on either.
export interface Connection {
	readonly worker: string;
	readonly inTransaction: boolean;
	begin(): Promise<void>;
	commit(): Promise<void>;
	rollback(): Promise<void>;
	findReceipt(event: EventIdentity): Promise<Receipt | null>;
	findTicket(id: number): Promise<Ticket | null>;
	saveTicket(draft: TicketDraft): Promise<number>;
	saveReceipt(receipt: Receipt): Promise<void>;
	saveOutbox(draft: OutboxDraft): Promise<number>;
	pendingOutbox(): Promise<OutboxRow[]>;
	markSent(id: number): Promise<boolean>;
	outside<T>(name: string, act: () => T | Promise<T>): Promise<T>;
}

// The scheduler's side of a connection: what the worker did and heard (for crash points and the explorer),
// the statement the server is still working on (null in memory), and the end of the worker's process.
export interface WorkerConnection extends Connection {
	readonly done: readonly string[];
	readonly heard: readonly string[];
	readonly working: Promise<void> | null;
	close(why: string): void | Promise<void>;
}

// What the scheduler needs of a database the workers share: InMemoryDatabase, or PostgresDatabase.
export interface SharedDatabase {
	step: number;
	readonly trace: TraceLine[];
	say(worker: string, text: string): void;
	connect(worker: string, gate: Gate): WorkerConnection | Promise<WorkerConnection>;
	// The worker whose open transaction this worker waits for, or null.
	blockedBy(worker: string): string | null;
	stateKey(): string;
	committed(): Contents | Promise<Contents>;
}

export {
	DatabaseError,
	DeadlockDetected,
	TransactionAborted,
	UniqueViolation,
	type ErrorCode
} from './errors.ts';

type Transaction = {
	worker: string;
	tickets: Ticket[];
	receipts: Receipt[];
	outbox: OutboxRow[];
	sent: Set<number>;
	locks: string[];
	aborted: boolean;
	open: boolean;
};

// An operation that can't go on yet: another open transaction holds what it needs.
type Wait = { waitFor: Transaction; why: string };
const isWait = (value: unknown): value is Wait =>
	typeof value === 'object' && value !== null && 'waitFor' in value && 'why' in value;

// The receipts table's unique key is sameEvent (core/identity.ts), field by field: joined into one string,
// tenant "a/b" + source "c" would collide with tenant "a" + source "b/c".
// A lock name that no two different identities share: a JSON array keeps the fields apart.
const identityKey = (e: EventIdentity) => JSON.stringify([e.tenant, e.source, e.eventId]);

const copyRows = <T extends object>(rows: T[]): T[] => rows.map((row) => ({ ...row }));

function saidWrites(tx: Transaction): string {
	return listed([
		...tx.tickets.map((t) => `ticket #${t.id}`),
		...tx.receipts.map((r) => `receipt ${saidIdentity(r)} → #${r.ticketId}`),
		...tx.outbox.map((o) => `outbox row #${o.id}`),
		...[...tx.sent].map((id) => `outbox row #${id} marked sent`)
	]);
}

export class InMemoryDatabase implements SharedDatabase {
	private data: Contents = { tickets: [], receipts: [], outbox: [] };
	private sequences = { tickets: 0, outbox: 0 };
	private locks = new Map<string, Transaction>();
	private open = new Map<string, Transaction>();
	private waiting = new Map<string, Transaction>();
	// The scheduler sets the step; every trace line carries it.
	step = 0;
	readonly trace: TraceLine[] = [];

	connect(worker: string, gate: Gate = noGate): MemoryConnection {
		return new MemoryConnection(this, worker, gate);
	}

	// A table has no order of its own: listed as PostgreSQL's committed() lists them, by id and by ticket.
	committed(): Contents {
		return {
			tickets: copyRows(this.data.tickets).sort((a, b) => a.id - b.id),
			receipts: copyRows(this.data.receipts).sort((a, b) => a.ticketId - b.ticketId),
			outbox: copyRows(this.data.outbox).sort((a, b) => a.id - b.id)
		};
	}

	say(worker: string, text: string): void {
		this.trace.push({ step: this.step, worker, text });
	}

	// The transaction a worker is waiting for, while it is still open.
	blockedBy(worker: string): string | null {
		const holder = this.waiting.get(worker);
		if (holder?.open) return holder.worker;
		this.waiting.delete(worker);
		return null;
	}

	// Everything that decides what happens next, as text: two runs in the same state behave the same from here.
	stateKey(): string {
		const txs = [...this.open.values()].map((tx) => [
			tx.worker,
			tx.tickets,
			tx.receipts,
			tx.outbox,
			[...tx.sent],
			tx.aborted
		]);
		const waits = [...this.waiting].map(([worker, tx]) => [worker, tx.open && tx.worker]);
		return JSON.stringify([this.data, this.sequences, txs, waits]);
	}

	// The worker's process is gone: its open transaction rolls back, as when PostgreSQL loses a connection.
	disconnect(worker: string, why: string): void {
		const tx = this.open.get(worker);
		this.waiting.delete(worker);
		if (!tx) {
			this.say(worker, why);
			return;
		}
		const writes = saidWrites(tx);
		this.end(tx);
		this.say(worker, droppedSentence(why, true, writes));
	}

	/** @internal */ begin(worker: string): Transaction {
		const tx: Transaction = {
			worker,
			tickets: [],
			receipts: [],
			outbox: [],
			sent: new Set(),
			locks: [],
			aborted: false,
			open: true
		};
		this.open.set(worker, tx);
		return tx;
	}

	/** @internal */ commit(tx: Transaction): string {
		const writes = saidWrites(tx);
		this.data.tickets.push(...tx.tickets);
		this.data.receipts.push(...tx.receipts);
		this.data.outbox.push(...tx.outbox);
		for (const row of this.data.outbox) if (tx.sent.has(row.id)) row.state = 'sent';
		this.end(tx);
		return writes;
	}

	/** @internal */ rollback(tx: Transaction): string {
		const writes = saidWrites(tx);
		this.end(tx);
		return writes;
	}

	private end(tx: Transaction): void {
		tx.open = false;
		for (const lock of tx.locks) this.locks.delete(lock);
		this.open.delete(tx.worker);
	}

	/** @internal */ receipts(tx: Transaction): Receipt[] {
		return [...this.data.receipts, ...tx.receipts];
	}

	/** @internal */ tickets(tx: Transaction): Ticket[] {
		return [...this.data.tickets, ...tx.tickets];
	}

	/** @internal */ outbox(tx: Transaction): OutboxRow[] {
		return [...this.data.outbox, ...tx.outbox].map((row) =>
			tx.sent.has(row.id) ? { ...row, state: 'sent' } : row
		);
	}

	/** @internal */ nextId(table: 'tickets' | 'outbox'): number {
		return ++this.sequences[table];
	}

	// Takes a lock for tx, or says which open transaction it must wait for. A wait that closes a cycle is a deadlock.
	/** @internal */ lock(tx: Transaction, name: string, why: string): Wait | null {
		const holder = this.locks.get(name);
		if (!holder || holder === tx) {
			if (!holder) {
				this.locks.set(name, tx);
				tx.locks.push(name);
			}
			return null;
		}
		for (let next: Transaction | undefined = holder; next; next = this.waiting.get(next.worker)) {
			if (next.worker === tx.worker) {
				this.say(
					tx.worker,
					`${tx.worker} ${why}it would wait for ${holder.worker}, which waits for it: deadlock detected.`
				);
				throw new DeadlockDetected(
					`deadlock detected: ${tx.worker} waits for ${holder.worker}, which waits for ${tx.worker}`
				);
			}
			if (!next.open) break;
		}
		this.waiting.set(tx.worker, holder);
		return { waitFor: holder, why };
	}

	/** @internal */ stopWaiting(worker: string): void {
		this.waiting.delete(worker);
	}
}

// A worker's connection to the model. What it counts, refuses and says is bookkeeping.ts, shared with PostgreSQL's.
export class MemoryConnection extends ConnectionBookkeeping<InMemoryDatabase> implements WorkerConnection {
	private tx: Transaction | null = null;
	readonly working = null;

	get inTransaction(): boolean {
		return this.tx !== null;
	}

	async begin(): Promise<void> {
		this.usable('begin');
		if (this.tx) throw this.misuse('begin: a transaction is already open; commit or roll it back first');
		this.tx = this.db.begin(this.worker);
		this.say('begins a transaction.');
	}

	async commit(): Promise<void> {
		const commits = !!this.tx && !this.tx.aborted && saidWrites(this.tx) !== '';
		await this.turn({ name: 'commit', writes: false, commits });
		try {
			const tx = this.tx;
			if (!tx) throw this.misuse('commit: no transaction is open (call begin() first)');
			this.tx = null;
			if (tx.aborted) {
				this.db.rollback(tx);
				throw this.abortedCommit();
			}
			this.sayCommitted(this.db.commit(tx));
		} finally {
			this.finished('commit');
		}
	}

	async rollback(): Promise<void> {
		await this.turn({ name: 'rollback', writes: false, commits: false });
		try {
			const tx = this.tx;
			if (!tx) throw this.misuse('rollback: no transaction is open');
			this.tx = null;
			this.sayRolledBack(this.db.rollback(tx));
		} finally {
			this.finished('rollback');
		}
	}

	findReceipt(event: EventIdentity): Promise<Receipt | null> {
		return this.run('find-receipt', false, (tx) => {
			const found = this.db.receipts(tx).find((r) => sameEvent(r, event));
			this.say(
				`looks for a receipt for ${saidIdentity(event)}: ${found ? `found one, for ticket #${found.ticketId}` : 'none'}.`
			);
			return found ? { ...found } : null;
		});
	}

	findTicket(id: number): Promise<Ticket | null> {
		return this.run('find-ticket', false, (tx) => {
			const found = this.db.tickets(tx).find((t) => t.id === id);
			this.say(`reads ticket #${id}: ${found ? `"${found.subject}"` : 'not there'}.`);
			return found ? { ...found } : null;
		});
	}

	saveTicket(draft: TicketDraft): Promise<number> {
		return this.run('save-ticket', true, (tx) => {
			const ticket: Ticket = { id: this.db.nextId('tickets'), tenant: draft.tenant, subject: draft.subject };
			tx.tickets.push(ticket);
			this.say(`saves ticket #${ticket.id} (${ticket.tenant}: ${ticket.subject})${this.where()}.`);
			return ticket.id;
		});
	}

	saveReceipt(receipt: Receipt): Promise<void> {
		const key = saidIdentity(receipt);
		const row: Receipt = {
			tenant: receipt.tenant,
			source: receipt.source,
			eventId: receipt.eventId,
			subject: receipt.subject,
			ticketId: receipt.ticketId
		};
		return this.run('save-receipt', true, (tx) => {
			const what = `saves the receipt ${key} → #${row.ticketId}`;
			const taken = this.db.receipts(tx).find((r) => sameEvent(r, row));
			if (taken) {
				this.say(`${what}: unique violation, ${key} already has a receipt (→ #${taken.ticketId}).`);
				throw new UniqueViolation(
					`duplicate key value violates unique constraint "receipts_identity": (tenant, source, event_id)=(${row.tenant}, ${row.source}, ${row.eventId}) already exists`
				);
			}
			const wait = this.db.lock(tx, `receipt:${identityKey(row)}`, `${what}: `);
			if (wait) return wait;
			tx.receipts.push(row);
			this.say(`${what}${this.where()}.`);
		});
	}

	saveOutbox(draft: OutboxDraft): Promise<number> {
		// As in PostgreSQL, the id is drawn first: an insert that then hits the key, or waits, has burned it.
		let id: number | undefined;
		return this.run('save-outbox', true, (tx) => {
			id ??= this.db.nextId('outbox');
			const taken = this.db.outbox(tx).find((r) => r.key === draft.key);
			const what = `saves an outbox row for ticket #${draft.ticketId} (key ${draft.key})`;
			if (taken) {
				this.say(`${what}: unique violation, outbox row #${taken.id} has that key.`);
				throw new UniqueViolation(
					`duplicate key value violates unique constraint "outbox_key": (key)=(${draft.key}) already exists`
				);
			}
			const wait = this.db.lock(tx, `outbox-key:${draft.key}`, `${what}: `);
			if (wait) return wait;
			const row: OutboxRow = {
				id,
				key: draft.key,
				tenant: draft.tenant,
				ticketId: draft.ticketId,
				to: draft.to,
				subject: draft.subject,
				state: 'pending'
			};
			tx.outbox.push(row);
			this.say(`${what} as row #${row.id}${this.where()}.`);
			return row.id;
		});
	}

	pendingOutbox(): Promise<OutboxRow[]> {
		return this.run('pending-outbox', false, (tx) => {
			const rows = this.db
				.outbox(tx)
				.filter((row) => row.state === 'pending')
				.sort((a, b) => a.id - b.id);
			const said = rows.length ? rows.map((row) => `#${row.id}`).join(', ') : 'none';
			this.say(`reads the pending outbox rows: ${said}.`);
			return rows.map((row) => ({ ...row }));
		});
	}

	markSent(id: number): Promise<boolean> {
		return this.run('mark-sent', true, (tx) => {
			const what = `marks outbox row #${id} sent`;
			// Like UPDATE … WHERE state = 'pending': a row it can't see, or sees sent, is left alone, unlocked.
			const seen = this.db.outbox(tx).find((r) => r.id === id);
			const wait = seen?.state === 'pending' ? this.db.lock(tx, `outbox-row:${id}`, `${what}: `) : null;
			if (wait) return wait;
			const row = this.db.outbox(tx).find((r) => r.id === id);
			if (!row || row.state === 'sent') {
				this.say(`${what}: ${row ? 'it already was' : 'there is no such row'}, nothing changes.`);
				return false;
			}
			tx.sent.add(id);
			this.say(`${what}${this.where()}.`);
			return true;
		});
	}

	/** @internal */ close(why: string): void {
		this.closed = true;
		this.tx = null;
		this.db.disconnect(this.worker, why);
	}

	// One operation: waits for its turn, runs in the open transaction or in one of its own, and waits again as
	// long as another open transaction holds what it needs.
	private async run<T>(name: OperationName, writes: boolean, act: (tx: Transaction) => T | Wait): Promise<T> {
		for (;;) {
			await this.turn({ name, writes, commits: writes && !this.tx });
			const blocker = this.db.blockedBy(this.worker);
			if (blocker) {
				throw this.misuse(
					`${name} would wait for ${blocker}'s transaction, but nothing else runs: use runWorkers() from scheduler.ts`
				);
			}
			const own = this.tx;
			if (own?.aborted) {
				this.sayAborted(name);
				const error = new TransactionAborted();
				this.finished(name, error);
				throw error;
			}
			const tx = own ?? this.db.begin(this.worker);
			let result: T | Wait;
			try {
				result = act(tx);
			} catch (error) {
				if (own) own.aborted = true;
				else this.db.rollback(tx);
				this.finished(name, error);
				throw error;
			}
			if (isWait(result)) {
				if (!own) this.db.rollback(tx);
				this.say(
					`${result.why}${result.waitFor.worker}'s open transaction has the same key, so ${this.worker} waits for it to end.`
				);
				continue;
			}
			this.db.stopWaiting(this.worker);
			if (!own) this.db.commit(tx);
			this.finished(name, undefined, result);
			return result;
		}
	}
}
