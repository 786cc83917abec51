// npm run ui, in a real browser (Debian's Chromium through playwright-core), on a throwaway copy of the workbook:
// it stays up without a terminal and ends with its address, its tree reads as the syllabus, an exercise whose
// solution is copied in turns green, and a failing test's panel shows the story. The test stops what it starts.
//
// UI_SCREENSHOT=docs/vitest-ui.png npx vitest run --project harness learner/ui.test.ts
// also saves the picture the README shows.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { launchChromium } from '../lib/browser.ts';
import { wrongSolution, writeWrongSolution } from '../lib/wrong-solutions.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';
import { stepFiles } from './ui-steps.ts';

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

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 90_000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		const found = await check();
		if (found) return found;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${what} did not happen within ${ms / 1000} s`);
}

it('npm run ui: without a terminal, ends with its address; the tree is the syllabus; green and red show', async () => {
	const { root, remove } = tempWorkbook();
	const port = await freePort();
	// Its own process group, so npm, tsx and Vitest all stop together; stdin is closed, as without a terminal.
	const ui = spawn('npm', ['run', 'ui', '--', '--open=false', `--api.port=${port}`, '--api.strictPort'], {
		cwd: root,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	ui.stdout.on('data', (chunk) => (output += chunk));
	ui.stderr.on('data', (chunk) => (output += chunk));
	const browser = await launchChromium();
	try {
		const url = `http://localhost:${port}/__vitest__/`;
		await until('the address as the last line', () => output.trimEnd().endsWith(url));
		expect(output).toMatch(/(\d+) of (\d+) of your tests pass/);
		const [, , total] = /(\d+) of (\d+) of your tests pass/.exec(output)!;

		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await page.goto(url);
		const labels = () =>
			page
				.getByTestId('explorer-item')
				.evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
		await until('the test tree', async () => (await labels()).length > 0 || undefined);
		await page.getByTestId('collapse-all').click();
		// The top level: each exercise's steps, 01 to the last, in the order their READMEs teach them.
		const steps = stepFiles(root).map((s) => s.step);
		await until('the tree collapsed to its files', async () => {
			const shown = (await labels()).filter((label) => label?.endsWith('.test.ts'));
			return shown.length === steps.length || undefined;
		});
		expect((await labels()).filter((label) => label?.endsWith('.test.ts'))).toEqual(steps);
		expect(steps.indexOf('03-the-race/1-prediction.test.ts')).toBeLessThan(
			steps.indexOf('03-the-race/2-atomic.test.ts')
		);
		// Tests of given code are not the learner's: the dashboard counts what progress counts.
		expect(await page.getByTestId('total-entry').innerText()).toContain(total!);
		expect(steps.some((step) => /separate|send-inside/.test(step))).toBe(false);

		// Solve 01, and get 02 wrong: 01 turns green, and 02's failure panel tells the story.
		const [first, second] = exercises(root);
		solve(root, first!.folder, first!.learnerFiles);
		const wrong = wrongSolution('receipt-after-the-commit');
		expect(wrong.folder).toBe(second!.folder);
		writeWrongSolution(wrong, join(root, 'exercises'));
		const firstStep = page.getByTestId('explorer-item').filter({ hasText: steps[0]! });
		await until(
			'01 shown as passed',
			async () => (await firstStep.innerHTML()).includes('i-carbon:checkmark') || undefined
		);
		// 01 passes now: the one failing "The acknowledgment is lost" is 02's, and its panel tells the story.
		await page.getByPlaceholder(/Search/).fill('The acknowledgment is lost');
		await page.getByTestId('expand-all').click();
		// The tree shows only what is on screen: find 02's test by its place under 02's step, and open it until
		// its panel shows the story (the run after the copy may still be on its way).
		const items = page.getByTestId('explorer-item');
		const story = page.getByText('expected replayed #1, your handler created #2');
		await until(
			"02's story in the failure panel",
			async () => {
				const shown = await items.evaluateAll((all) => all.map((i) => i.getAttribute('aria-label')));
				const at = shown.indexOf('The acknowledgment is lost', shown.indexOf(steps[1]!));
				if (at >= 0) await items.nth(at).click();
				await new Promise((resolve) => setTimeout(resolve, 500));
				return (await story.count()) > 0 || undefined;
			},
			90_000
		);
		expect(await page.getByText('Schedule "lost-acknowledgment"').count()).toBeGreaterThan(0);
		if (process.env.UI_SCREENSHOT)
			await page.screenshot({ path: join(workbookRoot, process.env.UI_SCREENSHOT) });
	} catch (error) {
		const page = browser.contexts()[0]?.pages()[0];
		if (page) await page.screenshot({ path: join(root, '..', 'ui-test-failed.png') });
		throw error;
	} finally {
		await browser.close();
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
}, 240_000);
