// The endpoint's store in memory: the same Store as postgres-store.ts (contract.ts), for exploring every crash
// point and every overlap of two requests quickly. memory-store.test.ts holds it to PostgreSQL's behaviour.
//
//   const store = new MemoryStore();                 // empty tables, ticket numbers from 1
//   await store.transaction(async (tx) => { … });    // commits if work returns, rolls back if it throws
//   await store.contents();                          // { tickets, keys, receipts }, as committed
//   const copy = store.copy();                       // the committed rows, in a store of their own
//   new MemoryStore(pause);                          // pause(step) is awaited before every statement and commit
//
// What it keeps from PostgreSQL at READ COMMITTED: a statement sees what is committed plus its own transaction's
// writes. lockKey is a try-lock held to the transaction's end. Saving a key (or a receipt) that is committed
// throws UniqueViolation; saving or forgetting one that another open transaction saved or forgot waits for that
// transaction to end, then sees its result. createTicket takes the ticket numbers' lock to the end, so ids
// count from 1 with no gaps. After an error inside a transaction, every later statement throws
// TransactionAborted. A wait is a step the pause function (overlaps.ts) can't pick until the lock is free;
// without one, a wait that nothing can end (a transaction waiting on another of its own request) throws.
import { TransactionAborted, UniqueViolation } from '../database/database.ts';
import { saidIdentity } from '../core/identity.ts';
import { beat } from '../core/watchdog.ts';
import type { Receipt, Ticket } from '../core/model.ts';
import type { EventIdentity, KeyRecord, Store, StoredReceipt, Transaction } from './contract.ts';
import type { StoreContents } from './postgres-store.ts';

// One step a transaction is about to take: a statement by its method's name, or its commit; the locks it takes
// (or tries, as lockKey does), and whether another open transaction holds a lock.
export type MemoryStep = {
	name: keyof Transaction | 'commit';
	blocked: () => boolean;
	takes: readonly string[];
	heldByAnother: (lock: string) => boolean;
};
export type Pause = (step: MemoryStep) => Promise<void>;

// A key's row: unique per client and key, as PostgreSQL's primary key (client, key).
const keyId = (client: string, key: string) => JSON.stringify([client, key]);

type Rows = { tickets: Ticket[]; keys: Map<string, KeyRecord>; receipts: Map<string, StoredReceipt> };
const receiptKey = ({ tenant, source, eventId }: EventIdentity) => JSON.stringify([tenant, source, eventId]);

class MemoryTransaction implements Transaction {
	readonly keys = new Map<string, KeyRecord | null>();
	readonly receipts = new Map<string, StoredReceipt | null>();
	readonly tickets: Ticket[] = [];
	readonly locks = new Set<string>();
	aborted = false;
	constructor(private readonly store: MemoryStore) {}
	private readonly heldByAnother = (lock: string) => this.store.heldByAnother(this, lock);

	// The step, once nothing blocks it; an error in the statement aborts the transaction.
	private async step<T>(
		name: MemoryStep['name'],
		locks: string[],
		statement: () => T,
		takes = locks
	): Promise<T> {
		const blocked = () => locks.some((lock) => this.store.heldByAnother(this, lock));
		// Each step tells the watchdog this thread is alive: thousands of explored steps resolve at once, and keep
		// the thread's own timers (its other beat) waiting for seconds on a busy machine.
		beat();
		await this.store.pause({ name, blocked, takes, heldByAnother: this.heldByAnother });
		if (this.aborted) throw new TransactionAborted();
		if (blocked()) throw new Error(`${name} waits on a lock that nothing will release`);
		try {
			for (const lock of locks) this.locks.add(lock);
			return statement();
		} catch (error) {
			this.aborted = true;
			throw error;
		}
	}

	private visibleKey(id: string): KeyRecord | null {
		return this.keys.has(id) ? this.keys.get(id)! : (this.store.rows.keys.get(id) ?? null);
	}
	private visibleReceipt(id: string): StoredReceipt | null {
		return this.receipts.has(id) ? this.receipts.get(id)! : (this.store.rows.receipts.get(id) ?? null);
	}

	lockKey(client: string, key: string): Promise<boolean> {
		const id = keyId(client, key);
		return this.step(
			'lockKey',
			[],
			() => {
				if (this.store.heldByAnother(this, `advisory:${id}`)) return false;
				this.locks.add(`advisory:${id}`);
				return true;
			},
			[`advisory:${id}`]
		);
	}
	findKey(client: string, key: string): Promise<KeyRecord | null> {
		return this.step('findKey', [], () => copyKey(this.visibleKey(keyId(client, key))));
	}
	saveKey(record: KeyRecord): Promise<void> {
		const id = keyId(record.client, record.key);
		return this.step('saveKey', [`key:${id}`], () => {
			if (this.visibleKey(id))
				throw new UniqueViolation(`key "${record.key}" of client "${record.client}" is already saved`);
			this.keys.set(id, copyKey(record));
		});
	}
	forgetKey(client: string, key: string): Promise<void> {
		const id = keyId(client, key);
		return this.step('forgetKey', [`key:${id}`], () => void this.keys.set(id, null));
	}
	createTicket({ tenant, subject }: Omit<Ticket, 'id'>): Promise<number> {
		return this.step('createTicket', ['ticket-numbers'], () => {
			const id = this.store.rows.tickets.length + this.tickets.length + 1;
			this.tickets.push({ id, tenant, subject });
			return id;
		});
	}
	findReceipt(event: EventIdentity): Promise<StoredReceipt | null> {
		return this.step('findReceipt', [], () => copyReceipt(this.visibleReceipt(receiptKey(event))));
	}
	saveReceipt(receipt: StoredReceipt): Promise<void> {
		const id = receiptKey(receipt);
		return this.step('saveReceipt', [`receipt:${id}`], () => {
			if (this.visibleReceipt(id))
				throw new UniqueViolation(`the receipt of ${saidIdentity(receipt)} is already saved`);
			this.receipts.set(id, copyReceipt(receipt));
		});
	}
	forgetReceipt(event: EventIdentity): Promise<void> {
		const id = receiptKey(event);
		return this.step('forgetReceipt', [`receipt:${id}`], () => void this.receipts.set(id, null));
	}

	async commit(): Promise<void> {
		await this.store.pause({
			name: 'commit',
			blocked: () => false,
			takes: [],
			heldByAnother: this.heldByAnother
		});
		if (this.aborted) throw new TransactionAborted();
		const { rows } = this.store;
		rows.tickets.push(...this.tickets);
		for (const [key, record] of this.keys)
			if (record) rows.keys.set(key, record);
			else rows.keys.delete(key);
		for (const [id, receipt] of this.receipts)
			if (receipt) rows.receipts.set(id, receipt);
			else rows.receipts.delete(id);
	}
}

const copyKey = (record: KeyRecord | null): KeyRecord | null =>
	record && { ...record, response: { ...record.response }, createdAt: new Date(record.createdAt) };
const copyReceipt = (receipt: StoredReceipt | null): StoredReceipt | null =>
	receipt && { ...receipt, receivedAt: new Date(receipt.receivedAt) };

export class MemoryStore implements Store {
	rows: Rows = { tickets: [], keys: new Map(), receipts: new Map() };
	private readonly open = new Set<MemoryTransaction>();
	constructor(readonly pause: Pause = async () => {}) {}

	heldByAnother(tx: MemoryTransaction, lock: string): boolean {
		for (const other of this.open) if (other !== tx && other.locks.has(lock)) return true;
		return false;
	}

	async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
		const tx = new MemoryTransaction(this);
		this.open.add(tx);
		try {
			const result = await work(tx);
			await tx.commit();
			return result;
		} finally {
			this.open.delete(tx);
		}
	}

	// The committed rows in a store of their own, with the pause given (none by default).
	copy(pause?: Pause): MemoryStore {
		const copy = new MemoryStore(pause);
		copy.rows = {
			tickets: this.rows.tickets.map((ticket) => ({ ...ticket })),
			keys: new Map([...this.rows.keys].map(([key, record]) => [key, copyKey(record)!])),
			receipts: new Map([...this.rows.receipts].map(([id, receipt]) => [id, copyReceipt(receipt)!]))
		};
		return copy;
	}

	// What is committed, in the order PostgresStore.contents() lists it.
	async contents(): Promise<StoreContents> {
		const keys = [...this.rows.keys.values()]
			.map(({ client, key, response, createdAt }) => ({ client, key, ...response, createdAt }))
			.sort(
				(a, b) =>
					a.createdAt.getTime() - b.createdAt.getTime() ||
					(a.client !== b.client ? (a.client < b.client ? -1 : 1) : a.key < b.key ? -1 : 1)
			);
		const receipts: Receipt[] = [...this.rows.receipts.values()]
			.map(({ tenant, source, eventId, subject, ticketId }) => ({
				tenant,
				source,
				eventId,
				subject,
				ticketId
			}))
			.sort((a, b) => a.ticketId - b.ticketId);
		return { tickets: this.rows.tickets.map((ticket) => ({ ...ticket })), keys, receipts };
	}
}
