// The endpoint's store on a real PostgreSQL: tickets, idempotency keys and webhook receipts, in a schema of
// its own per store, so two processes can share one server. A test process keeps one store and empties it.
//
//   const store = await PostgresStore.open(url);   // a fresh schema with empty tables
//   const store = await emptyStore(url);           // this process's store, its tables emptied: tests reuse it
//   await store.transaction(async (tx) => { … });  // contract.ts says what tx can do
//   await store.contents();                         // { tickets, keys, receipts }, as committed
//   await store.close();                            // drops the schema, ends the pool
//
// The tables: tickets(id, tenant, subject); ticket_numbers(last), one row handing out ids with no gaps (its row
// lock is held to the commit, so a rollback gives the number back and ticket creators take turns);
// idempotency_keys(client and key the primary key, fingerprint, status, body, created_at); receipts(tenant,
// source, event_id primary key, subject, ticket_id, received_at). A subject is varchar(maxSubjectLength): a
// longer one fails its insert. lockKey takes pg_try_advisory_xact_lock on a hash of the schema, the client
// and the key, so two tests' keys, and two clients' keys, never meet. Faults come from the request's Plan (faults.ts):
// they strike just before a COMMIT that would save something, and before a ticket's insert.
// A later helper can serve the same Transaction over the workbook's PostgresConnection instead of its own pool.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { UniqueViolation } from '../database/database.ts';
import { fromServer } from '../postgres/connection.ts';
import type { Receipt, Ticket } from '../core/model.ts';
import {
	maxSubjectLength,
	type EventIdentity,
	type KeyRecord,
	type Store,
	type StoredReceipt,
	type Transaction
} from './contract.ts';
import { saidIdentity } from '../core/identity.ts';
import { planNow } from './faults.ts';

export type SavedKey = { client: string; key: string; status: number; body: string; createdAt: Date };
export type StoreContents = { tickets: Ticket[]; keys: SavedKey[]; receipts: Receipt[] };

const tables = `
	CREATE TABLE tickets (id integer PRIMARY KEY, tenant text NOT NULL, subject varchar(${maxSubjectLength}) NOT NULL);
	CREATE TABLE ticket_numbers (last integer NOT NULL);
	INSERT INTO ticket_numbers VALUES (0);
	CREATE TABLE idempotency_keys (
		client text NOT NULL, key text NOT NULL, fingerprint text NOT NULL, status integer NOT NULL,
		body text NOT NULL, created_at timestamptz NOT NULL, PRIMARY KEY (client, key));
	CREATE TABLE receipts (
		tenant text NOT NULL, source text NOT NULL, event_id text NOT NULL, subject varchar(${maxSubjectLength}) NOT NULL,
		ticket_id integer NOT NULL, received_at timestamptz NOT NULL, PRIMARY KEY (tenant, source, event_id));`;

// The server's error as the workbook's (fromServer, as the race's connection does), a duplicate key named by what it saved.
async function saving(insert: Promise<unknown>, what: string): Promise<void> {
	try {
		await insert;
	} catch (error) {
		const mapped = fromServer(error);
		throw mapped instanceof UniqueViolation ? new UniqueViolation(`${what} is already saved`) : mapped;
	}
}

// pg's own conversion of a parameter to its text (pg/lib/utils.js, which ships no types).
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
	prepareValue: (value: unknown) => string | Buffer | null;
};

// A statement with its values written in as literals, the text pg would send for each: for the one round trip
// that carries BEGIN too (a query string of two statements takes no parameters).
function withValues(sql: string, values: unknown[]): string {
	return sql.replace(/\$(\d+)/g, (_, n: string) => {
		const text = prepareValue(values[Number(n) - 1]);
		return text === null ? 'NULL' : pg.escapeLiteral(String(text));
	});
}

class PostgresTransaction implements Transaction {
	wrote = false;
	// BEGIN is sent with the first statement, saving a round trip; a transaction that never queried has no BEGIN.
	begun = false;
	constructor(
		private readonly client: pg.PoolClient,
		private readonly schema: string
	) {}

	private async writing(): Promise<void> {
		await planNow().beforeWrite();
		this.wrote = true;
	}

	private async query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
		await planNow().turn();
		planNow().alive();
		if (this.begun) return this.client.query<R>(sql, values);
		this.begun = true;
		const [, result] = (await this.client.query(`BEGIN; ${withValues(sql, values)}`)) as unknown as [
			pg.QueryResult,
			pg.QueryResult<R>
		];
		return result;
	}

	async lockKey(client: string, key: string): Promise<boolean> {
		const sql = 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked';
		const { rows } = await this.query<{ locked: boolean }>(sql, [`${this.schema}:${client}:${key}`]);
		return rows[0]!.locked;
	}
	async findKey(client: string, key: string): Promise<KeyRecord | null> {
		const { rows } = await this.query<{
			fingerprint: string;
			status: number;
			body: string;
			created_at: Date;
		}>('SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE client = $1 AND key = $2', [
			client,
			key
		]);
		const row = rows[0];
		return row
			? {
					client,
					key,
					fingerprint: row.fingerprint,
					response: { status: row.status, body: row.body },
					createdAt: row.created_at
				}
			: null;
	}
	async saveKey({ client, key, fingerprint, response, createdAt }: KeyRecord): Promise<void> {
		await this.writing();
		const sql = 'INSERT INTO idempotency_keys VALUES ($1, $2, $3, $4, $5, $6)';
		await saving(
			this.query(sql, [client, key, fingerprint, response.status, response.body, createdAt]),
			`key "${key}" of client "${client}"`
		);
	}
	async forgetKey(client: string, key: string): Promise<void> {
		await this.writing();
		await this.query('DELETE FROM idempotency_keys WHERE client = $1 AND key = $2', [client, key]);
	}
	async createTicket({ tenant, subject }: Omit<Ticket, 'id'>): Promise<number> {
		await this.writing();
		planNow().beforeTicket();
		// The next number and the ticket in one statement; the numbers' row stays locked until the commit.
		const { rows } = await this.query<{ id: number }>(
			`WITH next AS (UPDATE ticket_numbers SET last = last + 1 RETURNING last)
			 INSERT INTO tickets SELECT last, $1, $2 FROM next RETURNING id`,
			[tenant, subject]
		);
		return rows[0]!.id;
	}
	async findReceipt({ tenant, source, eventId }: EventIdentity): Promise<StoredReceipt | null> {
		const { rows } = await this.query<{ subject: string; ticket_id: number; received_at: Date }>(
			'SELECT subject, ticket_id, received_at FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3',
			[tenant, source, eventId]
		);
		const row = rows[0];
		return row
			? {
					tenant,
					source,
					eventId,
					subject: row.subject,
					ticketId: row.ticket_id,
					receivedAt: row.received_at
				}
			: null;
	}
	async saveReceipt(receipt: StoredReceipt): Promise<void> {
		await this.writing();
		const { tenant, source, eventId, subject, ticketId, receivedAt } = receipt;
		const sql = 'INSERT INTO receipts VALUES ($1, $2, $3, $4, $5, $6)';
		await saving(
			this.query(sql, [tenant, source, eventId, subject, ticketId, receivedAt]),
			`the receipt of ${saidIdentity(receipt)}`
		);
	}
	async forgetReceipt({ tenant, source, eventId }: EventIdentity): Promise<void> {
		await this.writing();
		const sql = 'DELETE FROM receipts WHERE tenant = $1 AND source = $2 AND event_id = $3';
		await this.query(sql, [tenant, source, eventId]);
	}
}

export class PostgresStore implements Store {
	private constructor(
		private readonly pool: pg.Pool,
		readonly schema: string
	) {}

	static async open(url: string, connections = 6): Promise<PostgresStore> {
		const schema = `endpoint_${randomBytes(6).toString('hex')}`;
		const setup = new pg.Client({ connectionString: url });
		await setup.connect();
		try {
			await setup.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${tables}`);
		} finally {
			await setup.end();
		}
		const pool = new pg.Pool({
			connectionString: url,
			max: connections,
			// Idle connections don't keep a test worker alive.
			allowExitOnIdle: true,
			application_name: schema,
			options: `-c search_path=${schema}`
		});
		// An idle client whose server went away: nothing to do, the next query says so.
		pool.on('error', () => {});
		return new PostgresStore(pool, schema);
	}

	async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
		const plan = planNow();
		plan.alive();
		const client = await this.pool.connect();
		const tx = new PostgresTransaction(client, this.schema);
		try {
			const result = await work(tx);
			if (tx.wrote) await plan.beforeCommit();
			await plan.turn();
			if (tx.begun) await client.query('COMMIT');
			return result;
		} catch (error) {
			await plan.turn();
			if (tx.begun) await client.query('ROLLBACK').catch(() => {});
			throw error;
		} finally {
			client.release();
		}
	}

	// Empty tables and ticket numbers from 1 again, as if just opened.
	async empty(): Promise<void> {
		// DELETE, not TRUNCATE: TRUNCATE gives each table new files, many times the work for a few rows. LOCK still
		// waits, as TRUNCATE did, for a transaction left open, so none of its rows outlives the emptying. One
		// round trip, and one transaction: the statements of one query string commit or fail together.
		await this.pool
			.query(`SET LOCAL lock_timeout = '5s'; LOCK tickets, ticket_numbers, idempotency_keys, receipts;
			DELETE FROM tickets; DELETE FROM idempotency_keys; DELETE FROM receipts; UPDATE ticket_numbers SET last = 0`);
	}

	// What is committed now, in id and key order: three reads in one round trip (one snapshot, too).
	async contents(): Promise<StoreContents> {
		const [tickets, keys, receipts] = (await this.pool.query(`
			SELECT id, tenant, subject FROM tickets ORDER BY id;
			SELECT client, key, status, body, created_at AS "createdAt" FROM idempotency_keys
			 ORDER BY created_at, client, key;
			SELECT tenant, source, event_id AS "eventId", subject, ticket_id AS "ticketId" FROM receipts
			 ORDER BY ticket_id, tenant, source, event_id`)) as unknown as [
			pg.QueryResult<Ticket>,
			pg.QueryResult<SavedKey>,
			pg.QueryResult<Receipt>
		];
		return { tickets: tickets.rows, keys: keys.rows, receipts: receipts.rows };
	}

	// How many connections are waiting on a lock now: a request blocked behind another's transaction.
	async waitingOnLocks(): Promise<number> {
		const { rows } = await this.pool.query<{ waiting: number }>(
			`SELECT count(*)::int AS waiting FROM pg_stat_activity
			 WHERE wait_event_type = 'Lock' AND application_name = $1`,
			[this.schema]
		);
		return rows[0]!.waiting;
	}

	async close(): Promise<void> {
		try {
			await this.pool.query(`DROP SCHEMA ${this.schema} CASCADE`);
		} finally {
			await this.pool.end();
		}
	}
}

// One store per process and server, reused: emptying its tables is much quicker than a new schema and new
// connections for every test. A store that can't be emptied (a transaction left open) is replaced.
const reused = new Map<string, Promise<PostgresStore>>();
export async function emptyStore(url: string): Promise<PostgresStore> {
	let store = reused.get(url);
	if (!store) reused.set(url, (store = PostgresStore.open(url)));
	try {
		await (await store).empty();
		return store;
	} catch {
		reused.delete(url);
		void store.then((old) => old.close()).catch(() => {});
		const fresh = PostgresStore.open(url);
		reused.set(url, fresh);
		return fresh;
	}
}
