// The grading's PostgreSQL: a run's role reaches its own database through the socket and nothing else, and
// stopping leaves no server process and no folder behind.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunPostgres } from '../channel/job.ts';
import { GradingPostgres, startedServers } from './postgres.ts';

const databases = new GradingPostgres();
afterAll(() => databases.stop());

async function connect(as: RunPostgres, database = as.database): Promise<pg.Client> {
	const client = new pg.Client({ ...as, database });
	await client.connect();
	return client;
}
const refused = (as: RunPostgres, database: string) =>
	connect(as, database).then(
		(client) => client.end().then(() => 'connected'),
		(error: Error) => error.message
	);

describe('GradingPostgres', () => {
	it('gives each run a role that reaches its own database only', { timeout: 60_000 }, async () => {
		const [a, b] = [await databases.runDatabase(), await databases.runDatabase()];
		const client = await connect(a.job);
		try {
			const { rows } = await client.query<{ superuser: boolean }>(
				'SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user'
			);
			expect(rows[0]!.superuser).toBe(false);
			await client.query('CREATE TABLE mine (x int)');
			await expect(client.query('CREATE DATABASE other')).rejects.toThrow(/permission denied/);
			await expect(client.query('CREATE ROLE other')).rejects.toThrow(/permission denied/);
			// The database is not the role's: no IS_TEMPLATE (which made the drop fail), no note for a later run.
			await expect(client.query(`ALTER DATABASE ${a.job.database} IS_TEMPLATE true`)).rejects.toThrow(
				/must be owner/
			);
			await expect(client.query(`COMMENT ON DATABASE ${a.job.database} IS 'hello'`)).rejects.toThrow(
				/must be owner/
			);
			await expect(client.query(`ALTER DATABASE ${a.job.database} SET work_mem = '1GB'`)).rejects.toThrow(
				/must be owner/
			);
		} finally {
			await client.end();
		}
		for (const database of [b.job.database, 'postgres', 'template1'])
			expect(await refused(a.job, database), database).toMatch(/permission denied/);
		expect(await refused({ ...a.job, password: b.job.password }, a.job.database)).toMatch(/password/);
		await a.drop();
		expect(await refused(a.job, a.job.database)).not.toBe('connected');
		await b.drop();
	});

	it(
		"survives its server going away while the next run's database is made",
		{ timeout: 60_000 },
		async () => {
			const grading = new GradingPostgres();
			try {
				const run = await grading.runDatabase();
				// The next run's database is being made now; the server is killed under it.
				const pid = startedServers.get(run.job.host);
				expect(pid, 'the server process').toBeDefined();
				process.kill(pid!, 'SIGKILL');
				await expect(grading.runDatabase()).rejects.toThrow();
			} finally {
				await grading.stop();
			}
		}
	);

	it('stops its server and removes its folder', { timeout: 60_000 }, async () => {
		const run = await databases.runDatabase();
		await run.drop();
		await databases.stop();
		expect(existsSync(dirname(run.job.host))).toBe(false);
		await databases.stop();
	});
});
