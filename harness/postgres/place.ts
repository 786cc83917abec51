// The workbook's tables on a real server, and a database of its own for each test file.
//
//   await prepareTemplate(server.url);          // once per server: the template every database copies
//   const place = await PostgresPlace.create(server.url); // CREATE DATABASE … TEMPLATE workbook_template
//   const db = await place.fresh();             // tables emptied, sequences back to 1: a PostgresDatabase
//   await place.drop();                         // closes its connection and drops the database
//
// The tables say in SQL what database.ts says in its opening comment: tickets numbered by a sequence (a
// rolled-back insert burns its number), receipts unique on (tenant, source, event_id) as three columns, and
// outbox rows numbered by a sequence, unique on their key, pending until marked sent. No foreign keys: they
// would take row locks the model does not have.
import { threadId } from 'node:worker_threads';
import pg from 'pg';
import { Backends, PostgresDatabase } from './connection.ts';

export const templateName = 'workbook_template';

export const schema = `
CREATE TABLE tickets (
	id serial PRIMARY KEY,
	tenant text NOT NULL,
	subject text NOT NULL
);
CREATE TABLE receipts (
	tenant text NOT NULL,
	source text NOT NULL,
	event_id text NOT NULL,
	subject text NOT NULL,
	ticket_id integer NOT NULL,
	CONSTRAINT receipts_identity UNIQUE (tenant, source, event_id)
);
CREATE TABLE outbox (
	id serial PRIMARY KEY,
	key text NOT NULL CONSTRAINT outbox_key UNIQUE,
	tenant text NOT NULL,
	ticket_id integer NOT NULL,
	"to" text NOT NULL,
	subject text NOT NULL,
	state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent'))
);`;

// The same server, another database: postgres://…/postgres → postgres://…/name.
export function urlOf(serverUrl: string, database: string): string {
	const url = new URL(serverUrl);
	url.pathname = `/${database}`;
	return url.toString();
}

async function withClient<T>(url: string, act: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	try {
		return await act(client);
	} finally {
		await client.end();
	}
}

export async function prepareTemplate(serverUrl: string): Promise<void> {
	await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${templateName}`));
	await withClient(urlOf(serverUrl, templateName), (client) => client.query(schema));
}

let made = 0;

export class PostgresPlace {
	private constructor(
		private readonly serverUrl: string,
		readonly name: string,
		private readonly monitor: pg.Client,
		private readonly backends: Backends
	) {}

	static async create(serverUrl: string): Promise<PostgresPlace> {
		// Threads share a pid, and a thread started after a stuck one counts from 1 again: the thread's id tells them apart.
		const name = `workbook_${process.pid}_${threadId}_${++made}`;
		await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${templateName}`));
		const monitor = new pg.Client({ connectionString: urlOf(serverUrl, name) });
		await monitor.connect();
		return new PostgresPlace(serverUrl, name, monitor, new Backends(urlOf(serverUrl, name)));
	}

	get url(): string {
		return urlOf(this.serverUrl, this.name);
	}

	// Every worker of the last database is gone by now (runWorkers closes them), so nothing holds a lock.
	async fresh(): Promise<PostgresDatabase> {
		await this.monitor.query('TRUNCATE tickets, receipts, outbox RESTART IDENTITY');
		return new PostgresDatabase(this.backends, this.monitor);
	}

	async drop(): Promise<void> {
		await this.backends.end();
		await this.monitor.end();
		await withClient(this.serverUrl, (client) =>
			client.query(`DROP DATABASE IF EXISTS ${this.name} WITH (FORCE)`)
		);
	}
}
