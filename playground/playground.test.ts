// The playground in a real browser (Debian's chromium, through playwright-core): the lesson's five scenes,
// Try it, the label on a stub, a planted wrong handler, a handler that never returns, and the race drawn.
// Each server serves a chosen copy of the learner's files (playAgainst), never exercises/ as edited.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playAgainst, type PlayOptions } from '../lib/redirect.ts';
import { launchChromium } from '../lib/browser.ts';
import { wrongSolution } from '../lib/wrong-solutions.ts';
import { startPlayground, type Playground } from './server.ts';

const repo = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
// The learner's files exactly as the workbook ships them: every one a stub.
const shipped = repo('learner/shipped');

// Each test waits on a browser and a Vite server: generous, for a machine shared with other work.
const slow = { timeout: 60_000 };

// Waits for what the page shows after the sandbox answers: longer than expect.poll's 1 s, for a busy machine.
const until = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });

let browser: Browser;
const scratch = mkdtempSync(join(tmpdir(), 'playground-test-'));

beforeAll(async () => {
	browser = await launchChromium();
}, 60_000);
afterAll(async () => {
	await browser?.close();
	rmSync(scratch, { recursive: true, force: true });
});

// A server on a free loopback port, serving the learner's files from these folders first (and a wrong
// solution's patched files before them, with options.patch); stopped after.
// troubles: errors the page threw, and any Node module Vite had to stub out for the browser (none may be).
function serving(folders: string[], options: PlayOptions = {}): { page: () => Page; troubles: string[] } {
	let playground: Playground | undefined;
	let page: Page | undefined;
	const troubles: string[] = [];
	beforeAll(async () => {
		const cacheDir = mkdtempSync(join(scratch, 'vite-'));
		playground = await startPlayground({ port: 0, plugins: [playAgainst(folders, options)], cacheDir });
		page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
		page.on('pageerror', (error) => troubles.push(`the page threw: ${error.message}`));
		page.on('request', (request) => {
			if (request.url().includes('browser-external'))
				troubles.push(`a Node module in the page: ${request.url()}`);
		});
		await page.goto(playground.url);
		// Ready when the first scene has been played (or has said why it could not be).
		await page.locator('#playback .loading').waitFor({ state: 'detached', timeout: 30_000 });
	}, 60_000);
	afterAll(async () => {
		await page?.close();
		await playground?.close();
	});
	return { page: () => page!, troubles };
}

// The lines of one list on one side ("#2 Cannot sign in duplicate"), or [] when it says it is empty.
async function listed(
	page: Page,
	section: string,
	side: string,
	list: 'tickets' | 'receipts'
): Promise<string[]> {
	const items = page.locator(`${section} [data-side="${side}"] ol[data-list="${list}"] li`);
	return (await items.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

async function playToTheEnd(page: Page, scene: string): Promise<void> {
	await page.click(`[data-scene="${scene}"]`);
	const next = page.locator('#playback [data-step="next"]');
	await next.and(page.locator(':not([disabled])')).waitFor();
	// The keyboard steps the scene: → while focus is inside it.
	await next.focus();
	while (await next.isEnabled()) await page.keyboard.press('ArrowRight');
}

async function deliver(page: Page, event: string, fault: string): Promise<void> {
	const before = await page.locator('#try-it [data-deliveries] li').count();
	await page.check(`#try-it input[name="event"][value="${event}"]`);
	await page.check(`#try-it input[name="fault"][value="${fault}"]`);
	await page.click('#try-it [data-try="deliver"]');
	await page.locator('#try-it [data-deliveries] li').nth(before).waitFor();
	await page.locator('#try-it .loading').waitFor({ state: 'detached' });
}

// What the lesson's section 03 shows at the end of each scene: tickets and receipts, left and right.
const lessonScenes = [
	{
		scene: 'one-delivery',
		left: ['#1 Cannot sign in'],
		right: ['#1 Cannot sign in'],
		receipts: ['acme/helpdesk/evt-42 → #1']
	},
	{
		scene: 'lost-acknowledgment',
		left: ['#1 Cannot sign in', '#2 Cannot sign in duplicate'],
		right: ['#1 Cannot sign in'],
		receipts: ['acme/helpdesk/evt-42 → #1']
	},
	{
		scene: 'crash-before-commit',
		left: ['#1 Cannot sign in'],
		right: ['#1 Cannot sign in'],
		receipts: ['acme/helpdesk/evt-42 → #1']
	},
	{
		scene: 'same-key-different-request',
		left: ['#1 Cannot sign in', '#2 Cannot export report'],
		right: ['#1 Cannot sign in'],
		receipts: ['acme/helpdesk/evt-42 → #1']
	},
	{
		scene: 'same-words-new-event',
		left: ['#1 Cannot sign in', '#2 Cannot sign in'],
		right: ['#1 Cannot sign in', '#2 Cannot sign in'],
		receipts: ['acme/helpdesk/evt-42 → #1', 'acme/helpdesk/evt-43 → #2']
	}
];

describe('the playground, on the files as shipped (every one a stub)', slow, () => {
	const { page, troubles } = serving([shipped]);

	it('labels a stub "not written yet, showing the solution", on both handlers and on atomic.ts', async () => {
		for (const side of ['create-every-time', 'receipt-in-commit']) {
			const label = page().locator(`#playback [data-side="${side}"] [data-source]`);
			await until(() => label.innerText()).toMatch(/not written yet, showing the solution$/);
		}
		await page().check('#race input[name="implementation"][value="atomic"]');
		await page().click('#race [data-race="play"]');
		await until(() => page().locator('#race [data-source]').innerText()).toBe(
			'exercises/03-the-race/atomic.ts: not written yet, showing the solution'
		);
	});

	for (const [i, expected] of lessonScenes.entries()) {
		it(`lesson scene ${i + 1} (${expected.scene}) ends with the lesson's tickets and receipts`, async () => {
			await playToTheEnd(page(), expected.scene);
			expect(await listed(page(), '#playback', 'create-every-time', 'tickets')).toEqual(expected.left);
			expect(await listed(page(), '#playback', 'create-every-time', 'receipts')).toEqual([]);
			await until(() =>
				page().locator('#playback [data-side="create-every-time"] [data-list="receipts"]').innerText()
			).toBe('Keeps no receipts');
			expect(await listed(page(), '#playback', 'receipt-in-commit', 'tickets')).toEqual(expected.right);
			expect(await listed(page(), '#playback', 'receipt-in-commit', 'receipts')).toEqual(expected.receipts);
		});
	}

	it('steps back with ←, and guesses first: the guess is checked against what the handlers did', async () => {
		await page().click('[data-scene="lost-acknowledgment"]');
		const counter = page().locator('#playback [data-counter]');
		await until(() => counter.innerText()).toBe('Before delivery 1 of 2');
		await page().fill('#playback [data-guess="left"]', '1');
		await page().fill('#playback [data-guess="right"]', '1');
		await page().click('#playback [data-step="next"]');
		await until(() => counter.innerText()).toBe('Step 1 of 2');
		expect(await page().locator('[data-guess-check]').innerText()).toBe(
			'Tickets now: 1, as you guessed on the left; 1, as you guessed on the right.'
		);
		await page().keyboard.press('ArrowLeft');
		await until(() => counter.innerText()).toBe('Before delivery 1 of 2');
		await page().click('#playback summary');
		expect(await page().locator('#playback details.words').innerText()).toContain(
			'delivery 2 (acme/helpdesk/evt-42 again, after a lost acknowledgment): create every time created #2, leaving 2 tickets and 0 receipts; receipt in the same commit replayed #1, leaving 1 ticket and 1 receipt.'
		);
	});

	it('Try it: a crash after the commit, then the same event: a duplicate on the left, a replay on the right', async () => {
		await page().click('#try-it [data-try="reset"]');
		await deliver(page(), 'evt-42', 'after-commit');
		await deliver(page(), 'evt-42', 'none');
		expect(await listed(page(), '#try-it', 'create-every-time', 'tickets')).toEqual([
			'#1 Cannot sign in',
			'#2 Cannot sign in duplicate'
		]);
		expect(await listed(page(), '#try-it', 'receipt-in-commit', 'tickets')).toEqual(['#1 Cannot sign in']);
		expect(await page().locator('#try-it [data-side="receipt-in-commit"] [data-answer]').innerText()).toBe(
			'Delivery 2: replayed #1'
		);
		expect(await listed(page(), '#try-it', 'receipt-in-commit', 'receipts')).toEqual([
			'acme/helpdesk/evt-42 → #1'
		]);
		expect(
			await page().locator('#try-it [data-disagreement]').count(),
			'the solution agrees with itself'
		).toBe(0);
	});

	it('Try it stops at 8 deliveries, and Reset empties both sides', async () => {
		await page().click('#try-it [data-try="reset"]');
		for (let i = 0; i < 8; i++) await deliver(page(), i % 2 ? 'evt-43' : 'other-tenant', 'none');
		await until(() => page().locator('#try-it [data-try="deliver"]').isDisabled()).toBe(true);
		expect(await listed(page(), '#try-it', 'receipt-in-commit', 'tickets')).toEqual([
			'#1 Cannot sign in (globex)',
			'#2 Cannot sign in'
		]);
		await page().click('#try-it [data-try="reset"]');
		expect(await page().locator('#try-it [data-side] ol').count()).toBe(0);
		expect(await page().locator('#try-it [data-try="deliver"]').isEnabled()).toBe(true);
	});

	it('draws the race: separate.ts hits the unique key; atomic.ts waits, rolls back, and replays', async () => {
		const kinds = () =>
			page()
				.locator('#race .cell [data-kind]')
				.evaluateAll((boxes) => boxes.map((b) => b.getAttribute('data-kind')));
		await page().selectOption('#race [data-race="schedule"]', 'two-workers-alternate');
		await page().check('#race input[name="implementation"][value="separate"]');
		await page().click('#race [data-race="play"]');
		await until(() => page().locator('#race [data-counter]').innerText()).toBe('Step 1 of 6');
		await page().click('#race [data-step="end"]');
		expect(await kinds()).toContain('violation');
		expect(await page().locator('#race [data-race="after"]').innerText()).toContain(
			'Answers: A: created #1; B: failed with a unique violation.'
		);

		await page().check('#race input[name="implementation"][value="atomic"]');
		await page().click('#race [data-race="play"]');
		await until(() => page().locator('#race [data-counter]').innerText()).toBe('Start, of 10 steps');
		await page().click('#race [data-step="end"]');
		expect(await kinds()).toEqual(
			expect.arrayContaining(['wait', 'waiting', 'violation', 'rollback', 'commit'])
		);
		// B waits at step 6 for A's transaction; step 7 is A's commit, drawn in B's lane as a wait.
		expect(await page().locator('#race [data-lane="B"][data-at="7"]').innerText()).toContain('waiting');
		await page().keyboard.press('ArrowLeft');
		await page().keyboard.press('ArrowLeft');
		await until(() => page().locator('#race [data-counter]').innerText()).toBe('Step 8 of 10');
		expect(await page().locator('#race [data-race="words"]').innerText()).toMatch(
			/8\. B saves the receipt .*unique violation/
		);
		expect(
			await page().locator('#race [data-lane="B"][data-at="9"] [data-kind]').count(),
			'step 9 is not drawn yet'
		).toBe(0);
	});

	it('ran without an error on the page, and without any Node module stubbed out for the browser', () => {
		expect(troubles).toEqual([]);
	});
});

describe('the playground, with a wrong 02 planted (replay ignores the subject)', slow, () => {
	const { page } = serving([shipped], { patch: wrongSolution('replay-ignores-the-subject') });

	it('says where the learner handler disagrees with the solution, in the words of the tests', async () => {
		await deliver(page(), 'evt-42', 'none');
		await deliver(page(), 'same-key', 'none');
		const said = page().locator('#try-it [data-disagreement="receipt-in-commit"]');
		await until(() => said.innerText()).toContain(
			'delivery 2 (acme/helpdesk/evt-42 again, now saying "Cannot export report"): expected refused (conflict), your handler replayed #1.'
		);
		expect(await said.innerText()).toContain(
			'What this usually means: the same key now carries another subject.'
		);
		expect(await page().locator('#try-it [data-side="receipt-in-commit"] [data-source]').innerText()).toBe(
			'exercises/02-same-event/handler.ts: your code'
		);
	});

	it("and where it disagrees with the lesson's scene, as the schedule's test does", async () => {
		await playToTheEnd(page(), 'same-key-different-request');
		await until(() =>
			page().locator('#playback [data-disagreement="receipt-in-commit"]').innerText()
		).toContain('Schedule "same-key-different-request" (Same key, different request)');
	});
});

describe('the playground, with a 01 handler that never returns and a 02 that throws', slow, () => {
	const folder = join(scratch, 'hangs');
	mkdirSync(join(folder, '01-first-handler'), { recursive: true });
	writeFileSync(
		join(folder, '01-first-handler', 'handler.ts'),
		`export class TicketHandler {\n\thandle(): never {\n\t\tfor (;;) {}\n\t}\n\tsnapshot() {\n\t\treturn { tickets: [], receipts: [] };\n\t}\n}\n`
	);
	mkdirSync(join(folder, '02-same-event'), { recursive: true });
	writeFileSync(
		join(folder, '02-same-event', 'handler.ts'),
		`export class ReceiptHandler {\n\tprivate count = 0;\n\thandle() {\n\t\tif (++this.count > 1) throw new Error('one delivery is enough');\n\t\treturn { kind: 'created', ticketId: 1 };\n\t}\n\tsnapshot() {\n\t\treturn { tickets: [{ id: 1, tenant: 'acme', subject: 'Cannot sign in' }], receipts: [] };\n\t}\n}\n`
	);
	const { page } = serving([folder, shipped]);

	it('stops it, says which delivery it was on, and the page still answers', async () => {
		await page().click('#try-it [data-try="reset"]');
		await page().check('#try-it input[name="event"][value="evt-43"]');
		await page().click('#try-it [data-try="deliver"]');
		const alert = page().locator('#try-it [data-side="create-every-time"] [data-broke]');
		await alert.waitFor({ timeout: 20_000 });
		expect(await alert.innerText()).toBe(
			'exercises/01-first-handler/handler.ts, delivery 1 (acme/helpdesk/evt-43) of "Try it": the handler did not return within 2 s, so the playground stopped it.'
		);
		// The other side is played again without it, and shown.
		expect(await listed(page(), '#try-it', 'receipt-in-commit', 'tickets')).toEqual(['#1 Cannot sign in']);
		// The page's own thread was never blocked: the race still plays (in a new sandbox).
		await page().click('#race [data-race="play"]');
		await until(() => page().locator('#race [data-counter]').innerText()).toMatch(/of \d+ steps|Step 1 of/);
	});

	it("says which delivery a handler threw at, in the harness's words", async () => {
		await page().check('#try-it input[name="event"][value="evt-42"]');
		await page().click('#try-it [data-try="deliver"]');
		const said = page().locator('#try-it [data-side="receipt-in-commit"] [data-broke]');
		await said.waitFor({ timeout: 20_000 });
		expect(await said.innerText()).toContain(
			'delivery 2 (acme/helpdesk/evt-42): your handler threw: one delivery is enough'
		);
	});
});
