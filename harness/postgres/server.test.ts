import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { familyOf, leftRunning } from './processes.ts';
import { startPostgres } from './server.ts';
import { readTemplate } from './template.ts';

describe('the PostgreSQL server of a run', () => {
	it('answers on the URL the global setup provides', async () => {
		const client = new pg.Client({ connectionString: inject('postgresUrl') });
		await client.connect();
		try {
			const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
			expect(rows[0]?.server_version).toMatch(/^\d+/);
		} finally {
			await client.end();
		}
	});

	it.runIf(existsSync('/proc'))(
		'stop() leaves none of its processes running (the global teardown checks the same of the run)',
		async () => {
			const server = await startPostgres();
			const family = familyOf(server.pid);
			try {
				expect(family.length, 'the postmaster and its helpers').toBeGreaterThan(1);
				expect(leftRunning(family)).toEqual(family);
			} finally {
				await server.stop();
			}
			expect(leftRunning(family)).toEqual([]);
		}
	);
});

describe('servers copied from the template cluster', () => {
	const canLogIn = async (port: number, password: string) => {
		const client = new pg.Client({
			host: '127.0.0.1',
			port,
			user: 'postgres',
			password,
			database: 'postgres'
		});
		try {
			await client.connect();
			return true;
		} catch {
			return false;
		} finally {
			await client.end().catch(() => undefined);
		}
	};

	it("each has a password of its own: the template's is refused, and one server's data is not the next's", async () => {
		const first = await startPostgres();
		try {
			const url = new URL(first.url);
			const template = readTemplate();
			expect(template, 'the template exists once a server has started').not.toBeNull();
			expect(await canLogIn(first.port, template!.password)).toBe(false);
			expect(await canLogIn(first.port, decodeURIComponent(url.password))).toBe(true);
			const client = new pg.Client({ connectionString: first.url });
			await client.connect();
			await client.query('CREATE TABLE left_behind (n int)').finally(() => client.end());
		} finally {
			await first.stop();
		}
		const second = await startPostgres();
		try {
			const client = new pg.Client({ connectionString: second.url });
			await client.connect();
			const { rows } = await client
				.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'left_behind'")
				.finally(() => client.end());
			expect(rows[0]?.n).toBe(0);
		} finally {
			await second.stop();
		}
	});
});
