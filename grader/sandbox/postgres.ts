// The PostgreSQL of one grading, for the exercises that store only in PostgreSQL (the manifest's
// "postgres": "only"). Learner code reaches it only through a Unix socket bound into its sandbox,
// as a role made for that one run, in a database made for that one run.
//
//   const postgres = new GradingPostgres();            // nothing starts until a run asks
//   const db = await postgres.runDatabase();           // a fresh role and database (the server starts on first use;
//                                                      // the next run's is made ahead, while this one plays)
//   db.job                                             // { host, port, user, password, database }: for the job
//   await db.drop();                                   // the database (its connections too) and the role go
//   await postgres.stop();                             // the server and its folder go; safe to call twice
//
// The server is started with a random superuser password and its socket in a folder of its own; no other
// database accepts connections from PUBLIC, so a run's role can connect to its own database and to nothing else.
// The role may not log in as anyone else, make roles or databases, and has a connection limit.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '#harness/postgres/server.ts';
import type { RunPostgres } from '../channel/job.ts';

// What a run is told (RunPostgres): job.host is the server's socket folder (inside the sandbox, it is bound at
// socketInSandbox).
export type RunDatabase = { job: RunPostgres; drop: () => Promise<void> };

// Where a run's sandbox sees the server's socket folder (read-only).
export const socketInSandbox = '/run/postgresql';
// A run's connections: the harness's pool (6) and a few more, never the whole server.
const connectionLimit = 16;

// The servers this process started, by socket folder, until stopped: a test checks that none outlives a grading.
export const startedServers = new Map<string, number | undefined>();

// The grader's own statements (a role, a database, a drop) take well under a second; a server that dies
// under one (its backends live on a while, waiting for a postmaster that is gone) must not hold the class.
const adminLimits = { connectionTimeoutMillis: 15_000, query_timeout: 15_000 };

// A client whose server goes away (stopped, crashed, killed) emits "error"; with no one listening, that would
// end the grader and the class with it, before its reports are written. The query it was in fails instead,
// which costs that run alone.
function listening(client: pg.Client): pg.Client {
	client.on('error', () => undefined);
	return client;
}

export class GradingPostgres {
	private server: Promise<PostgresServer> | null = null;
	private count = 0;

	private async admin<T>(work: (client: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
		this.server ??= startPostgres({ socket: true }).then(async (started) => {
			const client = listening(new pg.Client({ connectionString: started.url, ...adminLimits }));
			await client.connect();
			try {
				// Only a database's owner may connect to it: not the server's own, not the other runs'.
				await client.query(
					'REVOKE CONNECT ON DATABASE postgres FROM PUBLIC; REVOKE CONNECT ON DATABASE template1 FROM PUBLIC'
				);
			} finally {
				await client.end();
			}
			startedServers.set(started.socketFolder!, started.pid);
			return started;
		});
		const url = new URL((await this.server).url);
		url.pathname = `/${database}`;
		const client = listening(new pg.Client({ connectionString: url.toString(), ...adminLimits }));
		await client.connect();
		try {
			return await work(client);
		} finally {
			await client.end().catch(() => undefined);
		}
	}

	// The next run's database, made while the current run plays: a new database costs a few hundred
	// milliseconds (PostgreSQL copies its template), which no run then waits for.
	private ahead: Promise<RunDatabase> | null = null;

	async runDatabase(): Promise<RunDatabase> {
		const ready = this.ahead ?? this.newDatabase();
		// Once this one is made (or failed), and never after stop(): it would start a server again.
		this.ahead = ready
			.catch(() => undefined)
			.then(() => (this.server ? this.newDatabase() : Promise.reject(new Error('stopped'))));
		this.ahead.catch(() => undefined);
		return ready;
	}

	private async newDatabase(): Promise<RunDatabase> {
		const name = `run_${process.pid}_${++this.count}_${randomBytes(4).toString('hex')}`;
		const password = randomBytes(18).toString('hex');
		await this.admin(async (client) => {
			await client.query(
				`CREATE ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${connectionLimit} PASSWORD '${password}'`
			);
			// The server's superuser owns the database, so the run's role cannot ALTER it (IS_TEMPLATE would make
			// the drop fail and outlive the run) or COMMENT ON it (a note a later run could read); the role owns
			// the schema public and may connect and make schemas of its own (06's store makes one per play).
			await client.query(`CREATE DATABASE ${name}`);
			await client.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${name} FROM PUBLIC`);
			await client.query(`GRANT CONNECT, TEMPORARY, CREATE ON DATABASE ${name} TO ${name}`);
		});
		await this.admin((client) => client.query(`ALTER SCHEMA public OWNER TO ${name}`), name);
		const server = await this.server!;
		return {
			job: { host: server.socketFolder!, port: server.port, user: name, password, database: name },
			drop: () =>
				this.admin(async (client) => {
					// FORCE ends the run's connections first (a run killed mid-query leaves some behind).
					await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
					await client.query(`DROP ROLE IF EXISTS ${name}`);
				})
		};
	}

	async stop(): Promise<void> {
		// A database made ahead and never handed out goes with the server and its folder (made or half made).
		this.ahead = null;
		const server = this.server;
		this.server = null;
		const started = await server?.catch(() => null);
		await started?.stop();
		if (started) startedServers.delete(started.socketFolder!);
	}
}
