import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { familyOf, leftRunning } from './processes.ts';
import { startPostgres } from './server.ts';

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
