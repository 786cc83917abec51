// The grading's PostgreSQL: each run gets a cluster of its own, whose role reaches its own database through
// the socket and nothing else, whose limits the role cannot raise, whose size is watched, and whose teardown
// leaves no process and no folder behind, whatever the run left connected.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect as connectSocket, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunPostgres } from '../channel/job.ts';
import { isAlive } from '../../lib/run.ts';
import { clusterParent, runSettings } from './cluster.ts';
import { childrenOf } from './leftovers.ts';
import { mayMountOverlay, mountsUnder, unmountUnderSync } from './overlay.ts';
import { sizeOnDisk } from './quota.ts';
import { stampedFolder } from './leftovers.ts';
import { GradingPostgres, startedServers } from './postgres.ts';

const databases = new GradingPostgres();
afterAll(() => databases.stop());
// Asked before any cluster: where this grader may mount, every run's cluster is an overlay on the base.
const expectedWay = mayMountOverlay() ? 'overlay' : 'copy';
const folderOf = (run: { job: RunPostgres }) => run.job.host.replace(/\/socket$/, '');

async function connect(as: RunPostgres, database = as.database): Promise<pg.Client> {
	const client = new pg.Client({ ...as, database });
	client.on('error', () => undefined);
	await client.connect();
	return client;
}
const refused = (as: RunPostgres, database: string) =>
	connect(as, database).then(
		(client) => client.end().then(() => 'connected'),
		(error: Error) => error.message
	);

describe('GradingPostgres', () => {
	it(
		'gives each run a cluster of its own, whose role reaches its own database only',
		{ timeout: 60_000 },
		async () => {
			const [a, b] = [await databases.runDatabase(), await databases.runDatabase()];
			expect(a.job.host).not.toBe(b.job.host);
			expect([a.way, b.way]).toEqual([expectedWay, expectedWay]);
			const client = await connect(a.job);
			try {
				const { rows } = await client.query<{ superuser: boolean }>(
					'SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user'
				);
				expect(rows[0]!.superuser).toBe(false);
				await client.query('CREATE TABLE mine (x int)');
				await expect(client.query('CREATE DATABASE other')).rejects.toThrow(/permission denied/);
				await expect(client.query('CREATE ROLE other')).rejects.toThrow(/permission denied/);
				// The database is not the role's: no IS_TEMPLATE, no note on it, no settings of its own.
				for (const statement of [
					`ALTER DATABASE ${a.job.database} IS_TEMPLATE true`,
					`COMMENT ON DATABASE ${a.job.database} IS 'hello'`,
					`ALTER DATABASE ${a.job.database} SET work_mem = '1GB'`
				])
					await expect(client.query(statement), statement).rejects.toThrow(/must be owner/);
				// The run's limits are the server's, and the role cannot raise them.
				for (const name of ['max_connections', 'max_locks_per_transaction', 'temp_file_limit'])
					expect((await client.query(`SHOW ${name}`)).rows[0][name], name).toBe(runSettings[name]);
				await expect(client.query(`SET temp_file_limit = '10GB'`)).rejects.toThrow(/permission denied/);
				expect((await client.query('SHOW listen_addresses')).rows[0].listen_addresses).toBe('');
				// What a run writes where it may (its own role's settings, a table) is not in another run's cluster.
				await client.query(`ALTER ROLE CURRENT_USER SET application_name = 'note from a'`);
			} finally {
				await client.end();
			}
			const other = await connect(b.job);
			try {
				const notes = await other.query(
					"SELECT setconfig FROM pg_db_role_setting UNION ALL SELECT ARRAY[tablename::text] FROM pg_tables WHERE tablename = 'mine'"
				);
				expect(notes.rows).toEqual([]);
			} finally {
				await other.end();
			}
			for (const database of ['postgres', 'template1'])
				expect(await refused(a.job, database), database).toMatch(/permission denied/);
			expect(await refused({ ...a.job, user: 'postgres' }, 'postgres')).toMatch(/password/);
			await a.drop();
			expect(await refused(a.job, a.job.database)).not.toBe('connected');
			await b.drop();
		}
	);

	it(
		"kills every process of a run's cluster and removes its folder, whatever the run left behind",
		{ timeout: 60_000 },
		async () => {
			const run = await databases.runDatabase();
			const pid = startedServers.get(run.job.host)!;
			// Connections that never log in, one more than the server takes, and a session asleep in a query.
			const sockets: Socket[] = [];
			for (let n = 0; n < Number(runSettings.max_connections) + 1; n++) {
				const socket = connectSocket(join(run.job.host, `.s.PGSQL.${run.job.port}`));
				socket.on('error', () => undefined);
				sockets.push(socket);
			}
			await new Promise((resolve) => setTimeout(resolve, 300));
			const backends = childrenOf(pid);
			expect(backends.length).toBeGreaterThan(Number(runSettings.max_connections));
			expect(mountsUnder(folderOf(run)).length).toBe(expectedWay === 'overlay' ? 1 : 0);
			await run.drop();
			expect(mountsUnder(folderOf(run)), 'mounts left').toEqual([]);
			for (const socket of sockets) socket.destroy();
			for (const process of [pid, ...backends])
				expect(existsSync(`/proc/${process}`), `pid ${process}`).toBe(false);
			expect(existsSync(run.job.host), run.job.host).toBe(false);
			expect(startedServers.has(run.job.host)).toBe(false);
		}
	);

	it('stops a run whose cluster grows past its quota on disk', { timeout: 60_000 }, async () => {
		const small = new GradingPostgres({ quotaBytes: 64 * 1024 ** 2 });
		const run = await small.runDatabase();
		const client = await connect(run.job);
		let why: string | null = null;
		const watch = run.watchSize((said) => (why = said));
		try {
			// Incompressible rows, until the watch says so (or far past the quota).
			await client.query('CREATE TABLE big (x text)');
			for (let n = 0; n < 40 && !why; n++)
				await client.query('INSERT INTO big SELECT md5(random()::text) FROM generate_series(1, 300000)');
			expect(why).toMatch(/^its database passed 64 MB on disk, the quota of a run$/);
			// A copy's folder holds it all; an overlay's run wrote only its own layer, over the base's bytes.
			const written = sizeOnDisk(run.way === 'overlay' ? join(folderOf(run), 'layers') : folderOf(run));
			expect(written).toBeLessThan(160 * 1024 ** 2);
		} finally {
			watch.stop();
			await client.end().catch(() => undefined);
			await run.drop();
			await small.stop();
		}
	});

	// A grader in a process of its own starts a cluster, says the server's pid, and is killed with SIGKILL: no
	// exit handler runs, so only the parent-death signal can stop the server; a server stopped (SIGSTOP) when its
	// grader dies never acts on that signal, and the next grading kills it before it takes the folder. Two
	// gradings' bases and a Node of its own: three such files at once beside two busy loops took up to 60 s.
	for (const stopped of [false, true])
		it(
			`takes its clusters along when the grader itself is killed outright${stopped ? ', its server stopped' : ''}`,
			{ timeout: 150_000 },
			async () => {
				const script = [
					`import { GradingPostgres, startedServers } from ${JSON.stringify(join(import.meta.dirname, 'postgres.ts'))};`,
					'const run = await new GradingPostgres().runDatabase();',
					'console.log(JSON.stringify({ pid: [...startedServers.values()].at(-1), host: run.job.host, way: run.way }));',
					'setInterval(() => {}, 1000);'
				].join('\n');
				// Its clusters go in a folder of their own, which this test removes (no one is left to).
				const parent = mkdtempSync(join(clusterParent(), 'grade-postgres-killed-'));
				chmodSync(parent, 0o755);
				const grader = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
					stdio: ['ignore', 'pipe', 'inherit'],
					env: { ...process.env, WORKBOOK_GRADER_CLUSTERS: parent }
				});
				const said = await new Promise<{ pid: number; host: string; way: string }>((resolve, reject) => {
					let out = '';
					grader.stdout!.on('data', (chunk: Buffer) => {
						out += chunk.toString('utf8');
						if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
					});
					grader.once('exit', (code) => reject(new Error(`the grader exited first (code ${code})`)));
				});
				try {
					expect(isAlive(said.pid)).toBe(true);
					if (stopped) process.kill(said.pid, 'SIGSTOP');
					grader.kill('SIGKILL');
					for (let waited = 0; waited < (stopped ? 1000 : 20_000) && isAlive(said.pid); waited += 100)
						await new Promise((resolve) => setTimeout(resolve, 100));
					expect(isAlive(said.pid)).toBe(stopped);
					// Its folders stayed (no exit handler ran), stamped with a grader that is gone: the next grading
					// removes them, and leaves a live grader's (this one's, made here) alone.
					const left = readdirSync(parent).filter((name) => name.startsWith('grade-postgres-'));
					expect(left.length).toBeGreaterThan(0);
					// Its run's overlay (and the one made ahead, if it got that far) is still mounted: the sweep must
					// take it off before it removes the folder.
					expect(said.way).toBe(expectedWay);
					expect(mountsUnder(parent).length > 0).toBe(expectedWay === 'overlay');
					const mine = stampedFolder(parent, 'grade-postgres-run-');
					const given = process.env.WORKBOOK_GRADER_CLUSTERS;
					process.env.WORKBOOK_GRADER_CLUSTERS = parent;
					const next = new GradingPostgres();
					try {
						await (await next.runDatabase()).drop();
					} finally {
						await next.stop();
						if (given === undefined) delete process.env.WORKBOOK_GRADER_CLUSTERS;
						else process.env.WORKBOOK_GRADER_CLUSTERS = given;
					}
					expect(isAlive(said.pid)).toBe(false);
					expect(readdirSync(parent)).toEqual([basename(mine)]);
					expect(mountsUnder(parent), 'mounts left').toEqual([]);
				} finally {
					if (isAlive(said.pid)) process.kill(said.pid, 'SIGKILL');
					unmountUnderSync(parent);
					rmSync(parent, { recursive: true, force: true });
				}
			}
		);

	it(
		'copies the base where the grader may not mount, with the same limits and the same teardown',
		{ timeout: 60_000 },
		async () => {
			process.env.WORKBOOK_GRADER_CLUSTER_COPY = '1';
			const copying = new GradingPostgres();
			try {
				const run = await copying.runDatabase();
				expect(run.way).toBe('copy');
				expect(mountsUnder(folderOf(run))).toEqual([]);
				const client = await connect(run.job);
				try {
					expect((await client.query('SHOW max_connections')).rows[0].max_connections).toBe(
						runSettings.max_connections
					);
				} finally {
					await client.end();
				}
				await run.drop();
				expect(existsSync(folderOf(run)), folderOf(run)).toBe(false);
			} finally {
				delete process.env.WORKBOOK_GRADER_CLUSTER_COPY;
				await copying.stop();
			}
		}
	);

	it('stops, leaving no cluster and no folder behind', { timeout: 60_000 }, async () => {
		const run = await databases.runDatabase();
		await run.drop();
		const ahead = [...startedServers.keys()].map((socket) => socket.replace(/\/socket$/, ''));
		await databases.stop();
		expect(startedServers.size).toBe(0);
		expect(existsSync(run.job.host)).toBe(false);
		// The cluster made ahead, an overlay too where this grader mounts, is unmounted with its folder.
		for (const folder of ahead) expect(mountsUnder(folder), folder).toEqual([]);
		await databases.stop();
	});
});
