import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { tempWorkbook } from './temp-workbook.ts';

// A port nobody is using right now.
function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer().listen(0, () => {
			const address = server.address();
			server.close(() =>
				typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))
			);
		});
	});
}

async function answers(url: string, until: number): Promise<string> {
	while (Date.now() < until) {
		try {
			const response = await fetch(url);
			if (response.ok) return await response.text();
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${url} did not answer in time`);
}

it('npm run ui serves the Vitest UI on localhost, and the test stops it', async () => {
	const { root, remove } = tempWorkbook();
	const port = await freePort();
	// Its own process group, so npm, the shell and Vitest all stop together.
	const ui = spawn(
		'npm',
		[
			'run',
			'ui',
			'--',
			'--open=false',
			`--api.port=${port}`,
			'--api.strictPort',
			`--experimental.fsModuleCachePath=${root}/.cache`
		],
		{
			cwd: root,
			detached: true,
			stdio: 'ignore'
		}
	);
	try {
		const page = await answers(`http://localhost:${port}/__vitest__/`, Date.now() + 30_000);
		expect(page).toContain('<title>Vitest</title>');
	} finally {
		const running = () => ui.exitCode === null && ui.signalCode === null;
		const stopped = new Promise((resolve) => ui.once('exit', resolve));
		const stop = (signal: NodeJS.Signals) => {
			try {
				process.kill(-ui.pid!, signal);
			} catch {
				// The group is already gone.
			}
		};
		if (running()) stop('SIGTERM');
		await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5000))]);
		if (running()) stop('SIGKILL');
		remove();
	}
}, 45_000);
