// @ts-nocheck
// Hostile, to the class's PostgreSQL: at import, writes a gigabyte of rows that do not compress, then serves
// the reference's routes. On a server the class shared, its folder lived in /dev/shm: host memory, outside
// every run's memory limit.
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import pg from 'pg';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const writer = new pg.Client(postgres);
writer.on('error', () => undefined);
await writer.connect();
try {
	await writer.query('CREATE TABLE IF NOT EXISTS big (x text)');
	for (let n = 0; n < 100; n++)
		await writer.query('INSERT INTO big SELECT md5(random()::text) FROM generate_series(1, 300000)');
} catch {
	// The server went away: go on as if nothing happened.
}
