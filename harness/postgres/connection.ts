// PostgreSQL behind the same Connection as the in-memory model (database.ts): a handler runs unchanged on
// either, runWorkers() (scheduler.ts) steps it the same way, and its trace reads the same.
//
//   const db = await place.fresh();              // place.ts: a PostgresDatabase on empty tables
//   const run = await runWorkers(db, plans, inTurn(['A', 'B', 'A', 'B']));
//   await db.committed();                        // { tickets, receipts, outbox }, read from the server
//
// Each worker holds its own server connection (its own backend process); every operation is one SQL statement
// (tables in place.ts). BEGIN, COMMIT and ROLLBACK are PostgreSQL's own. SQLSTATE 23505 becomes
// UniqueViolation, 25P02 TransactionAborted, 40P01 DeadlockDetected, so learner code catches the same errors.
// PostgreSQL answers COMMIT of an aborted transaction with a rollback, not an error: here, as in the model, it
// throws TransactionAborted.
//
// Waiting is the server's, never guessed by the clock. After sending a statement, the connection asks the server,
// on a monitor connection, which backends block this one (pg_blocking_pids), until the statement answers or is
// seen waiting for another worker's open transaction. Then it says so in the trace and parks at the scheduler
// again, its statement still open on the server; the scheduler does not pick it while that transaction is open.
// Picked again, it goes on asking: the statement has answered, or now waits for someone else.
//
// A worker that crashes or ends is a dropped connection: with a transaction or a statement open, its backend is
// terminated (pg_terminate_backend, which returns once the process is gone), and PostgreSQL rolls it back.
// With nothing open there is nothing to roll back, and the connection is kept for the next worker (Backends).
import pg from 'pg';
import {
	DeadlockDetected,
	TransactionAborted,
	UniqueViolation,
	type Contents,
	type EventIdentity,
	type Gate,
	type OperationName,
	type OutboxDraft,
	type OutboxRow,
	type SharedDatabase,
	type TicketDraft,
	type WorkerConnection
} from '../database/database.ts';
import type { Receipt, Ticket } from '../core/model.ts';
import type { TraceLine } from '../scheduler/trace.ts';
import { sameEvent, saidIdentity } from '../core/identity.ts';
import { ConnectionBookkeeping, droppedSentence, listed } from '../database/bookkeeping.ts';

// A statement's answer, kept until the worker may hear it: it never rejects.
type Answer = { ok: true; result: pg.QueryResult } | { ok: false; error: unknown };

type Transaction = {
	writes: string[];
	receipts: Receipt[];
	outbox: { id: number; key: string }[];
	aborted: boolean;
};

// The server's error as the workbook's: the same classes the model throws.
export function fromServer(error: unknown): unknown {
	const { code, message, detail } = error as { code?: string; message?: string; detail?: string };
	if (code === '23505')
		return new UniqueViolation(`${message}: ${(detail ?? '').replace(/^Key /, '').replace(/\.$/, '')}`);
	if (code === '25P02') return new TransactionAborted();
	if (code === '40P01') return new DeadlockDetected(message ?? 'deadlock detected');
	return error;
}

// A server connection and its backend's process id.
export type Backend = { client: pg.Client; pid: number };

// Server connections kept for the next worker. One whose worker ended with nothing open is handed back and
// reused (connecting forks a backend, the slowest part of a run); one with anything open is terminated.
export class Backends {
	private readonly idle: Backend[] = [];
	constructor(readonly url: string) {}

	async take(): Promise<Backend> {
		const kept = this.idle.pop();
		if (kept) return kept;
		const client = new pg.Client({ connectionString: this.url });
		// A crash terminates the backend on purpose; the worker hears nothing more, so nor should the process.
		client.on('error', () => undefined);
		await client.connect();
		const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
		return { client, pid: rows[0]!.pid };
	}

	giveBack(backend: Backend): void {
		this.idle.push(backend);
	}

	async end(): Promise<void> {
		await Promise.all(this.idle.splice(0).map(({ client }) => client.end().catch(() => undefined)));
	}
}

export class PostgresDatabase implements SharedDatabase {
	step = 0;
	readonly trace: TraceLine[] = [];
	private readonly workerOf = new Map<number, string>();
	// Workers with a transaction open on the server (or a statement, outside one), and whom each waits for.
	private readonly open = new Set<string>();
	private readonly waiting = new Map<string, string>();

	constructor(
		private readonly backends: Backends,
		private readonly monitor: pg.Client
	) {}

	// The monitor answers one question at a time: a watcher's question and a read may overlap, so they queue.
	private asked: Promise<unknown> = Promise.resolve();
	private ask<T extends pg.QueryResultRow = pg.QueryResultRow>(
		text: string,
		values: unknown[] = []
	): Promise<pg.QueryResult<T>> {
		const answer = this.asked.then(() => this.monitor.query<T>(text, values));
		this.asked = answer.catch(() => undefined);
		return answer;
	}

	async connect(worker: string, gate: Gate): Promise<PostgresConnection> {
		const backend = await this.backends.take();
		this.workerOf.set(backend.pid, worker);
		return new PostgresConnection(this, worker, gate, backend);
	}

	say(worker: string, text: string): void {
		this.trace.push({ step: this.step, worker, text });
	}

	blockedBy(worker: string): string | null {
		const holder = this.waiting.get(worker);
		return holder !== undefined && this.open.has(holder) ? holder : null;
	}

	stateKey(): string {
		throw new Error('exploreAll() walks the in-memory database only: pass it an InMemoryDatabase');
	}

	async committed(): Promise<Contents> {
		const tickets = await this.ask<Ticket>('SELECT id, tenant, subject FROM tickets ORDER BY id');
		const receipts = await this.ask<Receipt>(
			'SELECT tenant, source, event_id AS "eventId", subject, ticket_id AS "ticketId" FROM receipts ORDER BY ticket_id'
		);
		const outbox = await this.ask<OutboxRow>(
			'SELECT id, key, tenant, ticket_id AS "ticketId", "to", subject, state FROM outbox ORDER BY id'
		);
		return { tickets: tickets.rows, receipts: receipts.rows, outbox: outbox.rows };
	}

	/** @internal */ opened(worker: string, open: boolean): void {
		if (open) this.open.add(worker);
		else this.open.delete(worker);
	}

	/** @internal */ isOpen(worker: string): boolean {
		return this.open.has(worker);
	}

	/** @internal */ waitsFor(worker: string, holder: string | null): void {
		if (holder === null) this.waiting.delete(worker);
		else this.waiting.set(worker, holder);
	}

	// Whether `worker` waits, through any chain of waits, for `target`.
	/** @internal */ waitsOn(worker: string, target: string): boolean {
		const seen = new Set<string>();
		for (let next = this.blockedBy(worker); next && !seen.has(next); next = this.blockedBy(next)) {
			if (next === target) return true;
			seen.add(next);
		}
		return false;
	}

	// The workers whose backends block this one now, asked of the server.
	/** @internal */ async blockers(pid: number): Promise<string[]> {
		const { rows } = await this.ask<{ pids: number[] }>('SELECT pg_blocking_pids($1) AS pids', [pid]);
		return (rows[0]?.pids ?? []).map((blocker) => this.workerOf.get(blocker) ?? `backend ${blocker}`);
	}

	// The worker's process is gone: with something open, its backend goes too, and the server rolls it back.
	/** @internal */ async drop(backend: Backend, open: boolean): Promise<void> {
		if (!open) return this.backends.giveBack(backend);
		await this.ask('SELECT pg_terminate_backend($1, 10000)', [backend.pid]);
		await backend.client.end().catch(() => undefined);
	}

	/** @internal */ async committedReceipt(event: EventIdentity): Promise<number | null> {
		const { rows } = await this.ask<{ ticketId: number }>(
			'SELECT ticket_id AS "ticketId" FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3',
			[event.tenant, event.source, event.eventId]
		);
		return rows[0]?.ticketId ?? null;
	}

	/** @internal */ async committedOutboxId(key: string): Promise<number | null> {
		const { rows } = await this.ask<{ id: number }>('SELECT id FROM outbox WHERE key = $1', [key]);
		return rows[0]?.id ?? null;
	}
}

export class PostgresConnection extends ConnectionBookkeeping<PostgresDatabase> implements WorkerConnection {
	working: Promise<void> | null = null;
	private tx: Transaction | null = null;
	private inFlight = 0;

	constructor(
		db: PostgresDatabase,
		worker: string,
		gate: Gate,
		private readonly backend: Backend
	) {
		super(db, worker, gate);
	}

	private get client(): pg.Client {
		return this.backend.client;
	}

	private get pid(): number {
		return this.backend.pid;
	}

	get inTransaction(): boolean {
		return this.tx !== null;
	}

	async begin(): Promise<void> {
		this.usable('begin');
		if (this.tx) throw this.misuse('begin: a transaction is already open; commit or roll it back first');
		await this.settled('BEGIN');
		this.tx = { writes: [], receipts: [], outbox: [], aborted: false };
		this.db.opened(this.worker, true);
		this.say('begins a transaction.');
	}

	async commit(): Promise<void> {
		const commits = !!this.tx && !this.tx.aborted && this.tx.writes.length > 0;
		await this.turn({ name: 'commit', writes: false, commits });
		try {
			const tx = this.tx;
			if (!tx) throw this.misuse('commit: no transaction is open (call begin() first)');
			this.tx = null;
			const answer = await this.settled('COMMIT');
			this.db.opened(this.worker, false);
			if (!answer.ok) throw fromServer(answer.error);
			if (tx.aborted || answer.result.command === 'ROLLBACK') throw this.abortedCommit();
			this.sayCommitted(listed(tx.writes));
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
			const answer = await this.settled('ROLLBACK');
			this.db.opened(this.worker, false);
			if (!answer.ok) throw fromServer(answer.error);
			this.sayRolledBack(listed(tx.writes));
		} finally {
			this.finished('rollback');
		}
	}

	async findReceipt(event: EventIdentity): Promise<Receipt | null> {
		const key = saidIdentity(event);
		const result = await this.run('find-receipt', false, `looks for a receipt for ${key}`, {
			text: 'SELECT tenant, source, event_id AS "eventId", subject, ticket_id AS "ticketId" FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3',
			values: [event.tenant, event.source, event.eventId]
		});
		const found = (result.rows[0] as Receipt | undefined) ?? null;
		this.say(
			`looks for a receipt for ${key}: ${found ? `found one, for ticket #${found.ticketId}` : 'none'}.`
		);
		return this.heardBack('find-receipt', found);
	}

	async findTicket(id: number): Promise<Ticket | null> {
		const result = await this.run('find-ticket', false, `reads ticket #${id}`, {
			text: 'SELECT id, tenant, subject FROM tickets WHERE id = $1',
			values: [id]
		});
		const found = (result.rows[0] as Ticket | undefined) ?? null;
		this.say(`reads ticket #${id}: ${found ? `"${found.subject}"` : 'not there'}.`);
		return this.heardBack('find-ticket', found);
	}

	async saveTicket(draft: TicketDraft): Promise<number> {
		const result = await this.run('save-ticket', true, 'saves a ticket', {
			text: 'INSERT INTO tickets (tenant, subject) VALUES ($1, $2) RETURNING id',
			values: [draft.tenant, draft.subject]
		});
		const id = (result.rows[0] as { id: number }).id;
		this.tx?.writes.push(`ticket #${id}`);
		this.say(`saves ticket #${id} (${draft.tenant}: ${draft.subject})${this.where()}.`);
		return this.heardBack('save-ticket', id);
	}

	async saveReceipt(receipt: Receipt): Promise<void> {
		const key = saidIdentity(receipt);
		const what = `saves the receipt ${key} → #${receipt.ticketId}`;
		await this.run(
			'save-receipt',
			true,
			what,
			{
				text: 'INSERT INTO receipts (tenant, source, event_id, subject, ticket_id) VALUES ($1, $2, $3, $4, $5)',
				values: [receipt.tenant, receipt.source, receipt.eventId, receipt.subject, receipt.ticketId]
			},
			async () => {
				const own = this.tx?.receipts.find((r) => sameEvent(r, receipt))?.ticketId;
				const taken = own ?? (await this.db.committedReceipt(receipt));
				this.say(`${what}: unique violation, ${key} already has a receipt (→ #${taken}).`);
			}
		);
		this.tx?.writes.push(`receipt ${key} → #${receipt.ticketId}`);
		this.tx?.receipts.push({ ...receipt });
		this.say(`${what}${this.where()}.`);
		this.heardBack('save-receipt', undefined);
	}

	async saveOutbox(draft: OutboxDraft): Promise<number> {
		const what = `saves an outbox row for ticket #${draft.ticketId} (key ${draft.key})`;
		const result = await this.run(
			'save-outbox',
			true,
			what,
			{
				text: 'INSERT INTO outbox (key, tenant, ticket_id, "to", subject) VALUES ($1, $2, $3, $4, $5) RETURNING id',
				values: [draft.key, draft.tenant, draft.ticketId, draft.to, draft.subject]
			},
			async () => {
				const own = this.tx?.outbox.find((row) => row.key === draft.key)?.id;
				const taken = own ?? (await this.db.committedOutboxId(draft.key));
				this.say(`${what}: unique violation, outbox row #${taken} has that key.`);
			}
		);
		const id = (result.rows[0] as { id: number }).id;
		this.tx?.writes.push(`outbox row #${id}`);
		this.tx?.outbox.push({ id, key: draft.key });
		this.say(`${what} as row #${id}${this.where()}.`);
		return this.heardBack('save-outbox', id);
	}

	async pendingOutbox(): Promise<OutboxRow[]> {
		const result = await this.run('pending-outbox', false, 'reads the pending outbox rows', {
			text: `SELECT id, key, tenant, ticket_id AS "ticketId", "to", subject, state FROM outbox WHERE state = 'pending' ORDER BY id`
		});
		const rows = result.rows as OutboxRow[];
		const said = rows.length ? rows.map((row) => `#${row.id}`).join(', ') : 'none';
		this.say(`reads the pending outbox rows: ${said}.`);
		return this.heardBack('pending-outbox', rows);
	}

	async markSent(id: number): Promise<boolean> {
		const what = `marks outbox row #${id} sent`;
		// One statement: the update, and whether the row was there at all (to say which "nothing changes").
		const result = await this.run('mark-sent', true, what, {
			text: `WITH marked AS (UPDATE outbox SET state = 'sent' WHERE id = $1 AND state = 'pending' RETURNING id)
				SELECT (SELECT count(*) FROM marked)::int AS changed, EXISTS (SELECT 1 FROM outbox WHERE id = $1) AS present`,
			values: [id]
		});
		const { changed, present } = result.rows[0] as { changed: number; present: boolean };
		if (!changed) {
			this.say(`${what}: ${present ? 'it already was' : 'there is no such row'}, nothing changes.`);
			return this.heardBack('mark-sent', false);
		}
		this.tx?.writes.push(`outbox row #${id} marked sent`);
		this.say(`${what}${this.where()}.`);
		return this.heardBack('mark-sent', true);
	}

	// The worker's process is gone. With a transaction or a statement open, its backend is terminated, so the
	// server rolls it back; the call returns once the backend has exited and its locks are free.
	async close(why: string): Promise<void> {
		this.closed = true;
		const tx = this.tx;
		this.tx = null;
		this.db.waitsFor(this.worker, null);
		await this.busy(
			(async () => {
				await this.db.drop(this.backend, tx !== null || this.inFlight > 0);
				this.db.opened(this.worker, false);
			})()
		);
		this.db.say(this.worker, droppedSentence(why, tx !== null, tx ? listed(tx.writes) : ''));
	}

	// Sends a statement; the scheduler sees the worker busy until it answers.
	private send(query: string | pg.QueryConfig): Promise<Answer> {
		this.inFlight++;
		return this.client
			.query(query)
			.then(
				(result): Answer => ({ ok: true, result }),
				(error: unknown): Answer => ({ ok: false, error })
			)
			.finally(() => this.inFlight--);
	}

	private settled(query: string): Promise<Answer> {
		return this.busy(this.send(query));
	}

	// Marks the worker busy with the server until the promise settles: the scheduler waits for it.
	private busy<T>(promise: Promise<T>): Promise<T> {
		const working = promise.then(
			() => undefined,
			() => undefined
		);
		this.working = working;
		return promise.finally(() => {
			if (this.working === working) this.working = null;
		});
	}

	// Resolves null once the statement has answered, or with the worker it was seen waiting for. Asks the
	// server again and again meanwhile: the scheduler sees the worker busy until then.
	private watch(answer: Promise<Answer>): Promise<string | null> {
		let answered = false;
		void answer.then(() => (answered = true));
		return this.busy(
			(async () => {
				for (;;) {
					const blockers = await Promise.race([answer.then(() => null), this.db.blockers(this.pid)]);
					if (answered || blockers === null) return null;
					const holder = blockers.find((name) => this.db.isOpen(name));
					// A holder that waits for this worker closes a cycle: the server's deadlock check ends it soon.
					if (holder && !this.db.waitsOn(holder, this.worker)) return holder;
				}
			})()
		);
	}

	// One operation: its turn, its statement, and as many turns again as it waits for other transactions.
	private async run(
		name: OperationName,
		writes: boolean,
		what: string,
		query: pg.QueryConfig,
		sayViolation?: () => Promise<void>
	): Promise<pg.QueryResult> {
		await this.turn({ name, writes, commits: writes && !this.tx });
		const own = this.tx;
		if (!own) this.db.opened(this.worker, true);
		const answer = this.send(query);
		// Once the server answers, the worker waits for nobody, even before it is picked to hear the answer.
		void answer.then(() => this.db.waitsFor(this.worker, null));
		try {
			for (;;) {
				const holder = await this.watch(answer);
				if (holder === null) break;
				this.db.waitsFor(this.worker, holder);
				this.say(
					`${what}: ${holder}'s open transaction has the same key, so ${this.worker} waits for it to end.`
				);
				await this.turn({ name, writes, commits: writes && !this.tx });
			}
		} finally {
			this.db.waitsFor(this.worker, null);
		}
		const settled = await answer;
		if (!own) this.db.opened(this.worker, false);
		if (settled.ok) return settled.result;
		const error = fromServer(settled.error);
		if (own) own.aborted = true;
		if (error instanceof TransactionAborted) this.sayAborted(name);
		else if (error instanceof UniqueViolation && sayViolation) await this.busy(sayViolation());
		else if (error instanceof DeadlockDetected)
			this.say(`${what}: it would wait for a transaction that waits for it: deadlock detected.`);
		this.finished(name, error);
		throw error;
	}

	private heardBack<T>(name: string, value: T): T {
		this.finished(name, undefined, value);
		return value;
	}
}
