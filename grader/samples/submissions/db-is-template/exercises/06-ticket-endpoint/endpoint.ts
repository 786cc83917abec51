// @ts-nocheck
// Hostile, to the class's PostgreSQL: at import, marks its database a template (so that dropping it fails and
// it outlives the run), leaves a session asleep in a query for an hour, and serves the reference's routes.
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import pg from 'pg';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const client = new pg.Client(postgres);
client.on('error', () => undefined);
await client.connect();
await client.query(`ALTER DATABASE ${postgres.database} IS_TEMPLATE true`).catch(() => undefined);
await client.query(`ALTER DATABASE ${postgres.database} ALLOW_CONNECTIONS false`).catch(() => undefined);
client.query('SELECT pg_sleep(3600)').catch(() => undefined);
