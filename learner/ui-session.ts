// npm run ui on a throwaway copy of the workbook, with headless Chromium beside it: for learner/ui.test.ts.
//
//   const session = await startUi(); // the copy, the UI's address, the terminal output so far, a browser
//   try { const page = await session.browser.newPage(); await page.goto(session.url); … }
//   finally { await session.stop(); } // the browser, npm, tsx and Vitest, and the copy: gone, on failure too
//
// The UI runs in a process group of its own with stdin closed, as without a terminal, on a port nobody uses.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../lib/browser.ts';
import { tempWorkbook } from './temp-workbook.ts';

export type UiSession = {
	root: string;
	url: string;
	output: () => string;
	browser: Browser;
	stop: () => Promise<void>;
};

// A port nobody is using right now.
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

// Polls check until it gives something, or fails saying what did not happen.
export async function until<T>(
	what: string,
	check: () => T | undefined | Promise<T | undefined>,
	ms = 90_000
): Promise<T> {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		const found = await check();
		if (found) return found;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${what} did not happen within ${ms / 1000} s`);
}

export async function startUi(): Promise<UiSession> {
	const { root, remove } = tempWorkbook();
	const port = await freePort();
	const ui = spawn('npm', ['run', 'ui', '--', '--open=false', `--api.port=${port}`, '--api.strictPort'], {
		cwd: root,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	ui.stdout.on('data', (chunk) => (output += chunk));
	ui.stderr.on('data', (chunk) => (output += chunk));
	const running = () => ui.exitCode === null && ui.signalCode === null;
	const signal = (name: NodeJS.Signals) => {
		try {
			process.kill(-ui.pid!, name);
		} catch {
			// The group is already gone.
		}
	};
	let browser: Browser | undefined;
	const stop = async () => {
		await browser?.close();
		const stopped = new Promise((resolve) => ui.once('exit', resolve));
		if (running()) signal('SIGTERM');
		await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5000))]);
		if (running()) signal('SIGKILL');
		remove();
	};
	try {
		browser = await launchChromium();
	} catch (error) {
		await stop();
		throw error;
	}
	return { root, url: `http://localhost:${port}/__vitest__/`, output: () => output, browser, stop };
}
