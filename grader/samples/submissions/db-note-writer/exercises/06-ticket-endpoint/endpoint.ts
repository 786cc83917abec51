// @ts-nocheck
// Hostile, to the class's PostgreSQL: at import, leaves a note wherever a later run might read it (a comment on
// its database, a setting of its role, a table), then serves the reference's routes. db-note-reader, graded
// after it, looks for the note.
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import pg from 'pg';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const client = new pg.Client(postgres);
client.on('error', () => undefined);
await client.connect();
const note = 'NOTE-FROM-AN-EARLIER-RUN';
for (const statement of [
	`COMMENT ON DATABASE ${postgres.database} IS '${note}'`,
	`COMMENT ON ROLE ${postgres.user} IS '${note}'`,
	`ALTER ROLE CURRENT_USER SET application_name = '${note}'`,
	`CREATE TABLE public.note AS SELECT '${note}'::text AS said`
])
	await client.query(statement).catch(() => undefined);
await client.end();
