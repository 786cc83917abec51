// The PostgreSQL of each exercise run, for the exercises that store only in PostgreSQL (the manifest's
// "postgres": "only"): a cluster of its own per run (cluster.ts), reached by learner code only through its
// Unix socket, bound into that run's sandbox and no other.
//
//   const postgres = new GradingPostgres();            // nothing starts until a run asks
//   const db = await postgres.runDatabase();           // a fresh cluster (the next run's is made ahead, while this one plays)
//   db.job                                             // { host, port, user, password, database }: for the job
//   const watch = db.watchSize(stop);                  // past the run's quota on disk, stop(why)
//   await db.drop();                                   // the cluster's processes are killed and its folder removed
//   await postgres.stop();                             // the base and the cluster made ahead go; safe to call twice
//
// Once per grading, a base cluster is made from the machine's template (harness/postgres/template.ts): a
// superuser password drawn at random, the run's role (no superuser, no CREATEDB, no CREATEROLE) and the run's
// database, owned by the superuser (so the role cannot ALTER it, COMMENT ON it or make it a template), whose
// `public` schema the role owns; no database but that one accepts the role. Each run gets that base under an
// overlay of its own (a copy where the grader may not mount), started with the run's own limits, and killed
// with its folder afterwards: nothing a run writes, in its database or in the shared catalogs (comments, role
// settings), is there for a later run, and the base underneath is never written.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { ReachablePostgres } from '#harness/postgres/embedded.ts';
import { machineTemplate } from '#harness/postgres/server.ts';
import { newPassword } from '#harness/postgres/template.ts';
import type { RunPostgres } from '../channel/job.ts';
import { clusterParent, startCluster, startedClusters, type Cluster } from './cluster.ts';
import { removeLeftovers, stampedFolder } from './leftovers.ts';

// What a run is told (RunPostgres): job.host is its cluster's socket folder (inside the sandbox, it is bound at
// socketInSandbox).
export type RunDatabase = {
	job: RunPostgres;
	// How its cluster was made from the base: an overlay on it (nothing copied), or a copy.
	way: Cluster['way'];
	watchSize: (onFull: (why: string) => void) => { stop: () => void };
	drop: () => Promise<void>;
};

// Where a run's sandbox sees its cluster's socket folder (read-only).
export const socketInSandbox = '/run/postgresql';
// A run's cluster on disk, base included (about 35 MB of it): past this, the run is stopped.
export const quotaBytes = 256 * 1024 ** 2;
const role = 'learner';
const database = 'run';

// The clusters this process started, by socket folder, until killed: a test checks that none outlives a grading.
export const startedServers = startedClusters;

// The grader's own statements take well under a second; a server that dies under one must not hold the class.
const adminLimits = { connectionTimeoutMillis: 15_000, query_timeout: 15_000 };

// A client whose server goes away emits "error"; with no one listening, that would end the grader.
function listening(client: pg.Client): pg.Client {
	client.on('error', () => undefined);
	return client;
}

type Base = { data: string; folder: string; password: string };

async function asSuperuser(cluster: Cluster, password: string, db: string, sql: string[]): Promise<void> {
	const client = listening(
		new pg.Client({
			host: cluster.socketFolder,
			port: cluster.port,
			user: 'postgres',
			password,
			database: db,
			...adminLimits
		})
	);
	await client.connect();
	try {
		for (const statement of sql) await client.query(statement);
	} finally {
		await client.end().catch(() => undefined);
	}
}

// The machine's template, or a fresh initdb (in `scratch`) where there is none that can be trusted.
async function templateData(scratch: string): Promise<{ data: string; password: string }> {
	const template = await machineTemplate();
	if (template) return template;
	const password = newPassword();
	const data = join(scratch, 'data');
	await new ReachablePostgres({
		databaseDir: data,
		password,
		port: 0,
		user: 'postgres',
		persistent: true,
		createPostgresUser: process.getuid?.() === 0,
		initdbFlags: ['--wal-segsize=1']
	}).initialise();
	return { data, password };
}

// The grading's base: the template started once, its passwords new, the run's role and database made.
async function makeBase(learnerPassword: string): Promise<Base> {
	const superuser = randomBytes(18).toString('hex');
	// Folders that graders killed outright left behind go first, with whatever still works in them.
	await removeLeftovers(clusterParent());
	const scratch = stampedFolder(clusterParent(), 'grade-postgres-initdb-');
	let base: Cluster;
	try {
		const template = await templateData(scratch);
		base = await startCluster(template.data, { quotaBytes: Infinity });
		try {
			await asSuperuser(base, template.password, 'postgres', baseSetup(superuser, learnerPassword));
			await asSuperuser(base, superuser, database, [`ALTER SCHEMA public OWNER TO ${role}`]);
			await base.shutDown();
		} catch (error) {
			await base.kill();
			throw error;
		}
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
	return { data: join(base.folder, 'data'), folder: base.folder, password: superuser };
}

const baseSetup = (superuser: string, learnerPassword: string) => [
	`ALTER ROLE postgres PASSWORD '${superuser}'`,
	`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD '${learnerPassword}'`,
	`CREATE DATABASE ${database}`,
	`REVOKE CONNECT, TEMPORARY ON DATABASE ${database} FROM PUBLIC`,
	'REVOKE CONNECT ON DATABASE postgres FROM PUBLIC',
	'REVOKE CONNECT ON DATABASE template1 FROM PUBLIC',
	`GRANT CONNECT, TEMPORARY, CREATE ON DATABASE ${database} TO ${role}`,
	// template0 takes no connection and no run makes a database from it: gone, a quarter fewer files (some 300
	// of 1,300) for every run's copy of the base, where creating each file is most of the copy's CPU.
	'ALTER DATABASE template0 IS_TEMPLATE false',
	'DROP DATABASE template0'
];

export class GradingPostgres {
	private base: Promise<Base> | null = null;
	private readonly learnerPassword = randomBytes(18).toString('hex');
	// The next run's cluster, made while the current run plays: no run waits for its own copy and start.
	private ahead: Promise<RunDatabase> | null = null;
	private stopped = false;
	// How the clusters runs were given were made from the base: what the class report says.
	readonly ways = new Set<Cluster['way']>();
	// quotaBytes: a run's cluster on disk, past which the run is stopped (a test gives a smaller one).
	constructor(private readonly options: { quotaBytes?: number } = {}) {}

	async runDatabase(): Promise<RunDatabase> {
		this.stopped = false;
		const ready = this.ahead ?? this.newCluster();
		this.ahead = ready
			.catch(() => undefined)
			.then(() => (this.stopped ? Promise.reject(new Error('stopped')) : this.newCluster()));
		this.ahead.catch(() => undefined);
		return ready.then((database) => {
			this.ways.add(database.way);
			return database;
		});
	}

	private async newCluster(): Promise<RunDatabase> {
		this.base ??= makeBase(this.learnerPassword);
		const base = await this.base;
		const cluster = await startCluster(base.data, {
			quotaBytes: this.options.quotaBytes ?? quotaBytes,
			onBase: true
		});
		return {
			way: cluster.way,
			job: {
				host: cluster.socketFolder,
				port: cluster.port,
				user: role,
				password: this.learnerPassword,
				database
			},
			watchSize: cluster.watchSize,
			drop: cluster.kill
		};
	}

	async stop(): Promise<void> {
		this.stopped = true;
		const ahead = this.ahead;
		this.ahead = null;
		await (await ahead?.catch(() => null))?.drop();
		const base = await this.base?.catch(() => null);
		this.base = null;
		if (base) await rm(base.folder, { recursive: true, force: true });
	}
}
