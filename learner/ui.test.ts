// npm run ui, in a real browser (Debian's Chromium through playwright-core), on a throwaway copy of the workbook
// (learner/ui-session.ts): it stays up without a terminal and ends with its address; as shipped, its tree names
// the learner's test files under exercises/ in the syllabus's order, a story wraps inside its panel, the row
// just clicked keeps its name in sight, and no page shows (nor is sent, on its websocket) where the workbook
// lies on this machine; an exercise whose solution is copied in turns green, and a failing test's panel tells
// the story. The session stops what it starts, on failure too.
//
// UI_SCREENSHOT=docs/vitest-ui.png npx vitest run --project harness learner/ui.test.ts
// also saves the picture the README shows.
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { wrongSolution, writeWrongSolution } from '../lib/wrong-solutions.ts';
import { solve } from './temp-workbook.ts';
import { startUi, until, type UiSession } from './ui-session.ts';
import { stepFiles } from './ui-steps.ts';
import { boxesThatOverflow, nameInSight } from './ui-page-checks.ts';

let session: UiSession;
let total: string;
let page: Page;
// Every HTTP answer the page fetched, and every message the UI's websocket sent it, for the check that none
// holds an absolute path.
const answers: { url: string; body: string }[] = [];
const messages: string[] = [];

beforeAll(async () => {
	session = await startUi();
	await until('the address as the last line', () => session.output().trimEnd().endsWith(session.url));
	const counts = /(\d+) of (\d+) of your tests pass/.exec(session.output());
	expect(counts, session.output()).not.toBeNull();
	total = counts![2]!;
	// An ordinary laptop's window: the tree gets a third of it.
	page = await session.browser.newPage({ viewport: { width: 1024, height: 768 } });
	page.on('response', async (response) => {
		const body = await response.text().catch(() => '');
		answers.push({ url: response.url(), body });
	});
	page.on('websocket', (socket) =>
		socket.on('framereceived', ({ payload }) => messages.push(String(payload)))
	);
	await page.goto(session.url);
}, 180_000);

afterAll(async () => {
	await session?.stop();
});

const items = () => page.getByTestId('explorer-item');
const labels = () => items().evaluateAll((all) => all.map((i) => i.getAttribute('aria-label') ?? ''));
// Which of this machine's paths a text holds: the copy's, the workbook's, the temp dir's.
const holding = (text: string) =>
	[...new Set([session.root, realpathSync(session.root), workbookRoot, `${tmpdir()}/`])].filter((path) =>
		text.includes(path)
	);
// The first place a path appears in the messages, with a little of what is around it.
const around = (messages: string[], path: string) => {
	const message = messages.find((one) => one.includes(path)) ?? '';
	const at = message.indexOf(path);
	return message.slice(Math.max(0, at - 60), at + path.length + 60);
};
// The tree's one button toggles between expanding and collapsing it, and a search expands the tree without
// turning the button: to be sure of either, both are asked for in turn.
const treeButton = (id: 'expand-all' | 'collapse-all') => async () => {
	await until('the test tree', async () => (await labels()).length > 0 || undefined);
	for (const next of id === 'expand-all' ? ['collapse-all', 'expand-all'] : ['expand-all', 'collapse-all']) {
		const button = page.getByTestId(next);
		if (await button.isVisible()) await button.click();
	}
};
const expandAll = treeButton('expand-all');
const collapseAll = treeButton('collapse-all');
const screenshotOnFailure = async (run: () => Promise<void>) => {
	try {
		await run();
	} catch (error) {
		await page.screenshot({ path: join(session.root, '..', 'ui-test-failed.png') }).catch(() => {});
		throw error;
	}
};

it(
	'as shipped: the tree names the test files under exercises/, in the syllabus order; it counts what progress counts',
	async () =>
		screenshotOnFailure(async () => {
			await until('the test tree', async () => (await labels()).length > 0 || undefined);
			await collapseAll();
			// Each exercise's test files, 01 to the last, in the order their READMEs teach them, by the names they
			// have in the learner's exercises/ folder.
			const expected = stepFiles(session.root).map((s) => `exercises/${s.exercise.folder}/${s.test}`);
			const files = await until('the tree collapsed to its files', async () => {
				const shown = (await labels()).filter((label) => label.endsWith('.test.ts'));
				return shown.length === expected.length ? shown : undefined;
			});
			expect(files, 'the tree names each test file by its path in the workbook').toEqual(expected);
			for (const file of files) expect(existsSync(join(session.root, file)), file).toBe(true);
			expect(files.indexOf('exercises/03-the-race/prediction.test.ts')).toBeLessThan(
				files.indexOf('exercises/03-the-race/atomic.test.ts')
			);
			// Tests of given code are not the learner's: the dashboard counts what progress counts.
			expect(await page.getByTestId('total-entry').innerText()).toContain(total);
			expect(files.some((file) => /separate|send-inside/.test(file))).toBe(false);
		}),
	60_000
);

it(
	"as shipped, on 01: a story wraps in its panel, the clicked row keeps its name, no page holds the machine's paths",
	async () =>
		screenshotOnFailure(async () => {
			await expandAll();
			// 01's test of a lost acknowledgment (01 is the tree's first file): its story's last line, the delivery
			// and the schedule, is long.
			const at = await until("01's test of a lost acknowledgment", async () => {
				const found = (await labels()).indexOf('The acknowledgment is lost');
				return found >= 0 ? found + 1 : undefined;
			});
			const row = items().nth(at - 1);
			const away = await nameInSight(row);
			await row.click();
			const story = page.locator('.task-error').first();
			await until('the failure panel', async () => (await story.count()) > 0 || undefined);
			expect(await story.innerText()).toContain('schedule "lost-acknowledgment"');
			const overflowing = await boxesThatOverflow(page);
			expect
				.soft(overflowing, 'a failure panel wider than its box (its story cut off at the right)')
				.toEqual([]);

			// The row just clicked, with the pointer still on it, shows its actions: they take no room from its name,
			// which reads against its background.
			const selected = await nameInSight(row);
			expect(selected.text).toBe('The acknowledgment is lost');
			expect.soft(selected.width, 'the name shown in the selected row, in pixels').toBeGreaterThan(0);
			expect.soft(selected.width, 'the name is as wide selected as it was before').toBe(away.width);
			expect
				.soft(selected.contrast, 'the contrast of the name with its background')
				.toBeGreaterThanOrEqual(3);

			// The test's report, then the file's: its report, its module graph and its code.
			const shown = [await page.evaluate(() => document.documentElement.outerHTML)];
			// 01's file is the tree's first row, whatever it is called.
			await items().first().hover();
			await items().first().getByTestId('btn-open-details').click();
			for (const tab of ['Report', 'Module Graph', 'Code']) {
				await page.getByText(tab, { exact: true }).first().click();
				await page.waitForTimeout(1000);
				shown.push(await page.evaluate(() => document.documentElement.outerHTML));
			}
			expect(shown[1], "the file's report shows its failures").toContain('ScheduleMismatch');
			const pages = ['the report', "the file's report", 'the module graph', 'the code'];
			expect
				.soft(
					shown.flatMap((html, i) => holding(html).map((path) => `${pages[i]} shows ${path}`)),
					'absolute paths of this machine in the page'
				)
				.toEqual([]);
			expect
				.soft(
					answers.flatMap(({ url, body }) => holding(body).map((path) => `${url} answered ${path}`)),
					'absolute paths of this machine in what the page fetched'
				)
				.toEqual([]);
			// The page's data: the files, their module graphs, the config, every stack, as the websocket sent them.
			expect(messages.length, 'messages on the websocket').toBeGreaterThan(0);
			expect
				.soft(
					[...new Set(messages.flatMap((message) => holding(message)))].map(
						(path) => `a message on the websocket holds ${path}: ${around(messages, path)}`
					),
					'absolute paths of this machine in what the websocket sent'
				)
				.toEqual([]);
		}),
	60_000
);

it(
	'solving 01 turns it green; a wrong 02 tells its story in the failure panel',
	async () =>
		screenshotOnFailure(async () => {
			const { root } = session;
			const [first, second] = exercises(root);
			solve(root, first!.folder, first!.learnerFiles);
			const wrong = wrongSolution('receipt-after-the-commit');
			expect(wrong.folder).toBe(second!.folder);
			writeWrongSolution(wrong, join(root, 'exercises'));
			const firstFile = `exercises/${first!.folder}/${first!.learnerFiles[0]!.replace(/\.ts$/, '.test.ts')}`;
			const secondFile = `exercises/${second!.folder}/${second!.learnerFiles[0]!.replace(/\.ts$/, '.test.ts')}`;
			await collapseAll();
			const firstItem = items().filter({ hasText: firstFile });
			await until(
				'01 shown as passed',
				async () => (await firstItem.innerHTML()).includes('i-carbon:checkmark') || undefined
			);
			// 01 passes now: the one failing "The acknowledgment is lost" is 02's, and its panel tells the story.
			await page.getByPlaceholder(/Search/).fill('The acknowledgment is lost');
			await expandAll();
			// The tree shows only what is on screen: find 02's test by its place under 02's file, and open it until
			// its panel shows the story (the run after the copy may still be on its way).
			const story = page.getByText('expected replayed #1, your handler created #2');
			await until("02's story in the failure panel", async () => {
				const shown = await labels();
				const at = shown.indexOf('The acknowledgment is lost', shown.indexOf(secondFile));
				if (at >= 0) {
					await items().nth(at).click();
					// The page opens a test on the tab last shown: its report is the one to read.
					await page.getByText('Report', { exact: true }).first().click();
				}
				await new Promise((resolve) => setTimeout(resolve, 500));
				return (await story.count()) > 0 || undefined;
			});
			expect(await page.getByText('Schedule "lost-acknowledgment"').count()).toBeGreaterThan(0);
			if (process.env.UI_SCREENSHOT) {
				await page.setViewportSize({ width: 1440, height: 900 });
				await page.screenshot({ path: join(workbookRoot, process.env.UI_SCREENSHOT) });
			}
		}),
	120_000
);

it(
	"a learner file that does not load: the error names it from the workbook's folder, and the tree keeps its names",
	async () =>
		screenshotOnFailure(async () => {
			const exercise = exercises(session.root)[3]!;
			const learnerFile = join(session.root, 'exercises', exercise.folder, exercise.learnerFiles[0]!);
			writeFileSync(learnerFile, `import './no-such-file.ts';\n${readFileSync(learnerFile, 'utf8')}`);
			const file = `exercises/${exercise.folder}/${exercise.learnerFiles[0]!.replace(/\.ts$/, '.test.ts')}`;
			await page.getByPlaceholder(/Search/).fill('');
			const item = items().filter({ hasText: file });
			const report = await until(`${file}'s report of the missing file`, async () => {
				// The rerun after the save may open the tree again: each try collapses it to its files.
				await collapseAll();
				if (
					!(await item.hover({ timeout: 2000 }).then(
						() => true,
						() => false
					))
				)
					return undefined;
				await item.getByTestId('btn-open-details').click();
				await page.getByText('Report', { exact: true }).first().click();
				const text = await page.evaluate(() => document.body.innerText);
				return text.includes('no-such-file') ? text : undefined;
			});
			expect
				.soft(
					report.split('\n').filter((line) => holding(line).length > 0),
					"the report's lines with an absolute path of this machine"
				)
				.toEqual([]);
			const files = (await labels()).filter((label) => label.endsWith('.test.ts'));
			expect(files.length).toBeGreaterThan(0);
			expect(files.filter((name) => !name.startsWith('exercises/'))).toEqual([]);
		}),
	60_000
);

it("a test file not as shipped passes nothing in the terminal line: its counts are tally()'s, as progress counts", async () => {
	const said = () => [...session.output().matchAll(/(\d+) of (\d+) of your tests pass/g)];
	await until('a quiet moment', async () => {
		const before = said().length;
		await new Promise((resolve) => setTimeout(resolve, 2000));
		return said().length === before || undefined;
	});
	const lines = said().length;
	const [, passed, all] = said().at(-1)!;
	// 07 ships with no test passing: its test file gutted to one that passes must not add one.
	const last = exercises(session.root).at(-1)!;
	const testFile = join(
		session.root,
		'exercises',
		last.folder,
		last.learnerFiles[0]!.replace(/\.ts$/, '.test.ts')
	);
	writeFileSync(testFile, "import { it } from 'vitest';\nit('passes', () => {});\n");
	await until('the line of the run after the edit', () => said().length > lines || undefined);
	const [, passedAfter, allAfter] = said().at(-1)!;
	expect(
		{ passed: passedAfter, all: allAfter },
		`npm run ui's counts after ${last.id}'s test file was changed to one passing test`
	).toEqual({ passed, all });
}, 60_000);

it(
	'a handler that never returns: the page says which test, within the time limit, and the next save recovers',
	async () =>
		screenshotOnFailure(async () => {
			const [first] = exercises(session.root);
			const handler = join(session.root, 'exercises', first!.folder, first!.learnerFiles[0]!);
			const solved = readFileSync(handler, 'utf8');
			expect(solved, "01's solution, copied in by the test before").toContain('handle(');
			writeFileSync(
				handler,
				solved.replace(/(\bhandle\([^)]*\)[^{]*\{)/, '$1\n\t\twhile (Date.now() > 0) {}')
			);
			// The first test to meet the loop is 01's first: its report tells the story.
			await page.getByPlaceholder(/Search/).fill('One delivery, one ticket');
			await expandAll();
			const told = await until(
				'the story of the hang in the report of the test that met it',
				async () => {
					const shown = await labels();
					const file = shown.findIndex((label) => label.startsWith(`exercises/${first!.folder}/`));
					const at = shown.indexOf('One delivery, one ticket', file);
					if (at < 0) return undefined;
					await items().nth(at).click();
					await page.getByText('Report', { exact: true }).first().click();
					const text = await page.evaluate(() => document.body.innerText);
					return text.includes('did not return') ? text : undefined;
				},
				60_000
			);
			expect(told).toMatch(/did not return within \d+ s in "/);
			expect
				.soft(
					told.split('\n').filter((line) => holding(line).length > 0),
					"the page's lines with an absolute path of this machine"
				)
				.toEqual([]);
			writeFileSync(handler, solved);
			await page.getByPlaceholder(/Search/).fill('');
			await collapseAll();
			const firstFile = items()
				.filter({ hasText: `exercises/${first!.folder}/` })
				.first();
			await until(
				'01 shown as passed again',
				async () => (await firstFile.innerHTML()).includes('i-carbon:checkmark') || undefined,
				60_000
			);
		}),
	150_000
);
