// npm run ui as an IDE runs it: on a port that is already taken, and stopped by a SIGTERM to npm alone (an
// IDE's stop button, a timeout), not to its whole process group as a terminal's Ctrl-C is.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempWorkbook } from './temp-workbook.ts';
import { until } from './ui-session.ts';

const listen = (port: number) =>
	new Promise<Server | undefined>((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(undefined));
		server.listen(port, () => resolve(server));
	});
// The group's processes, while one of them is alive.
const alive = (group: number) => {
	try {
		process.kill(-group, 0);
		return true;
	} catch {
		return false;
	}
};

const workbook = tempWorkbook();
let taken: Server;
let port: number;
let output = '';
let group = 0;
let npm: ReturnType<typeof spawn>;

beforeAll(async () => {
	taken = (await listen(0))!;
	const address = taken.address();
	port = typeof address === 'object' && address ? address.port : 0;
	npm = spawn('npm', ['run', 'ui', '--', '--open=false', `--api.port=${port}`], {
		cwd: workbook.root,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	group = npm.pid!;
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	await until('the address as the last line', () => /__vitest__\/\s*$/.test(output) || undefined, 120_000);
}, 180_000);

afterAll(() => {
	if (alive(group)) process.kill(-group, 'SIGKILL');
	taken.close();
	workbook.remove();
});

it('names the port the UI really took when the one asked for is taken, and the UI answers there', async () => {
	const url = output.trimEnd().split('\n').at(-1)!;
	const bound = Number(/:(\d+)\//.exec(url)?.[1]);
	expect(bound, output).not.toBe(port);
	expect(bound, output).toBeGreaterThan(0);
	const answer = await fetch(url);
	expect(answer.status, url).toBe(200);
}, 30_000);

it('a SIGTERM to npm alone stops Vitest too, and frees its port', async () => {
	const url = output.trimEnd().split('\n').at(-1)!;
	const bound = Number(/:(\d+)\//.exec(url)?.[1]);
	process.kill(npm.pid!, 'SIGTERM');
	await until('every process npm run ui started to end', () => !alive(group) || undefined, 20_000);
	const free = await listen(bound);
	expect(free, `port ${bound} still held`).toBeDefined();
	free?.close();
}, 60_000);
