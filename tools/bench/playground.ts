// npm run bench:playground: how long `npm run playground` takes to serve the page on this machine.
// Prints figures; it asserts nothing. Usage: npx tsx tools/bench/playground.ts [--runs 5]
// Each run starts `npm run playground` on a free port in its own process group, times the printed address
// (the last line), then the page, its script and the sandbox worker each answering 200, and stops the group.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { workbookRoot } from '#harness/core/manifest.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 5;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() =>
				typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))
			);
		});
	});
}

type Timing = { address: number; page: number; ready: number };

async function once(): Promise<Timing> {
	const port = await freePort();
	const started = performance.now();
	const child = spawn('npm', ['run', '--silent', 'playground'], {
		cwd: workbookRoot,
		detached: true,
		env: { ...process.env, PORT: String(port) },
		stdio: ['ignore', 'pipe', 'inherit']
	});
	try {
		const url = await new Promise<string>((resolve, reject) => {
			let out = '';
			child.stdout!.on('data', (chunk: Buffer) => {
				out += chunk;
				const found = /^(http:\/\/\S+)$/m.exec(out);
				if (found) resolve(found[1]!);
			});
			child.once('exit', (code) => reject(new Error(`npm run playground exited (${code}):\n${out}`)));
		});
		const address = performance.now() - started;
		const ok = async (path: string) => {
			const response = await fetch(new URL(path, url));
			if (!response.ok) throw new Error(`${path}: ${response.status}`);
			await response.text();
		};
		await ok('./');
		const page = performance.now() - started;
		await ok('./src/main.ts');
		await ok('./src/sandbox.worker.ts');
		return { address, page, ready: performance.now() - started };
	} finally {
		try {
			process.kill(-child.pid!, 'SIGTERM');
		} catch {
			// Already gone.
		}
		await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
	}
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const timings: Timing[] = [];
for (let i = 0; i < runs; i++) timings.push(await once());
const said = (key: keyof Timing) =>
	`${Math.round(median(timings.map((t) => t[key])))} ms median (${timings.map((t) => Math.round(t[key])).join(', ')})`;
console.log(`npm run playground, ${runs} runs, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`);
console.log(`  address printed            ${said('address')}`);
console.log(`  page answered              ${said('page')}`);
console.log(`  page, script and worker    ${said('ready')}`);
