// @ts-nocheck
// Graded right after db-note-writer: at import, looks for its note in every shared catalog and in its own
// database, and fails to load, saying what it found, if anything is there; else serves the reference's routes.
// {{SOLUTION}}
import { readFileSync } from 'node:fs';
import pg from 'pg';
const { postgres } = JSON.parse(readFileSync(process.env.GRADE_JOB, 'utf8'));
const client = new pg.Client(postgres);
client.on('error', () => undefined);
await client.connect();
const note = 'NOTE-FROM-AN-EARLIER-RUN';
const { rows } = await client.query(
	`SELECT found FROM (
		SELECT description AS found FROM pg_shdescription
		UNION ALL SELECT array_to_string(setconfig, ',') FROM pg_db_role_setting
		UNION ALL SELECT description FROM pg_description
		UNION ALL SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'
	) AS everywhere WHERE found LIKE '%' || $1 || '%' OR found = 'note'`,
	[note]
);
await client.end();
if (rows.length > 0) throw new Error(`FOUND ${rows.map((row) => row.found).join(' ')}`);
