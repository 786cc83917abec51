// The class page as an instructor meets it, in Chromium: opened from the file system, with every request it
// makes recorded, its counts read back and held against class.csv, a learner's diagnosis opened and closed
// from the keyboard alone, and axe-core's accessibility rules run on it. Says each problem in a line.
//
//   const problems = await checkClassPage(grade);   // [] when all holds
//   CLASS_SCREENSHOT=grader/class-page.png …        // also keeps a picture of the page
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../lib/browser.ts';
import { classPage } from './class-page.ts';
import { viewOfGrade } from './class-view.ts';
import { classCsv } from './csv.ts';
import type { ClassGrade } from './grade.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The CSV's cells, row by row (quoted cells may hold commas, quotes and newlines).
export function csvRows(text: string): string[][] {
	const rows: string[][] = [[]];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i]!;
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') ((cell += '"'), i++);
			else if (c === '"') quoted = false;
			else cell += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') (rows.at(-1)!.push(cell), (cell = ''));
		else if (c === '\n') (rows.at(-1)!.push(cell), (cell = ''), rows.push([]));
		else cell += c;
	}
	if (rows.at(-1)!.length === 0) rows.pop();
	return rows;
}

// How many learners made each named mistake, per exercise, as class.csv says.
function csvCounts(csv: string, ids: string[]): Map<string, number> {
	const [header, ...rows] = csvRows(csv);
	const counts = new Map<string, number>();
	for (const id of ids) {
		const column = header!.indexOf(`${id} mistake`);
		for (const row of rows) {
			const name = row[column] ?? '';
			if (name && !name.includes(' ')) counts.set(`${id} ${name}`, (counts.get(`${id} ${name}`) ?? 0) + 1);
		}
	}
	return counts;
}

export async function checkClassPage(grade: ClassGrade): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), 'class-page-'));
	const problems: string[] = [];
	const browser = await launchChromium();
	try {
		const page = join(dir, 'class.html');
		writeFileSync(page, classPage(viewOfGrade(grade)));
		const csv = classCsv(grade);
		const tab = await browser.newPage();
		const requests: string[] = [];
		tab.on('request', (request) => requests.push(request.url()));
		await tab.goto(pathToFileURL(page).href);
		const others = requests.filter((url) => url !== pathToFileURL(page).href);
		if (others.length) problems.push(`the page asked for more than itself: ${others.join(', ')}`);

		// The counts tables: one row per named mistake, "what" and "learners".
		const shown = await tab.$$eval('section table.counts', (tables) =>
			tables.flatMap((table) => {
				const id = (table.querySelector('caption')?.textContent ?? '').split(':')[0]!;
				if (!(table.querySelector('caption')?.textContent ?? '').includes('named mistakes the class made'))
					return [];
				return [...table.querySelectorAll('tbody tr')].map((row) => ({
					key: `${id} ${row.querySelector('th')?.textContent ?? ''}`,
					count: Number(row.querySelector('td')?.textContent)
				}));
			})
		);
		const fromCsv = csvCounts(
			csv,
			grade.exercises.map((e) => e.id)
		);
		const onPage = new Map(shown.map(({ key, count }) => [key, count]));
		for (const [key, count] of fromCsv)
			if (onPage.get(key) !== count)
				problems.push(`${key}: the CSV counts ${count}, the page ${onPage.get(key) ?? 'nothing'}`);
		for (const [key] of onPage) if (!fromCsv.has(key)) problems.push(`${key}: on the page, not in the CSV`);

		// The keyboard alone: Tab to the first learner, Enter opens their diagnosis, Space closes it.
		let focused = '';
		for (let tabs = 0; tabs < 5 && !focused.includes('learner'); tabs++) {
			await tab.keyboard.press('Tab');
			focused = await tab.evaluate(() => document.activeElement?.className ?? '');
		}
		if (!focused.includes('learner'))
			problems.push('Tab does not reach the first learner within five presses');
		await tab.keyboard.press('Enter');
		const opened = await tab.evaluate(() => {
			const button = document.activeElement as HTMLElement;
			const row = document.getElementById(button.getAttribute('aria-controls') ?? '');
			return button.getAttribute('aria-expanded') === 'true' && row !== null && !row.hidden;
		});
		if (!opened) problems.push('Enter on a learner does not open their diagnosis');
		await tab.keyboard.press('Space');
		const closed = await tab.evaluate(() =>
			(document.activeElement as HTMLElement).getAttribute('aria-expanded')
		);
		if (closed !== 'false') problems.push('Space on an open learner does not close it');

		if (process.env.CLASS_SCREENSHOT)
			await tab.screenshot({ path: process.env.CLASS_SCREENSHOT, fullPage: false });

		await tab.addScriptTag({ content: axeSource });
		const violations = await tab.evaluate(async () => {
			const axe = (
				window as unknown as {
					axe: { run: () => Promise<{ violations: { id: string; impact: string; help: string }[] }> };
				}
			).axe;
			return (await axe.run()).violations.map(({ id, impact, help }) => ({ id, impact, help }));
		});
		for (const v of violations)
			if (v.impact === 'serious' || v.impact === 'critical')
				problems.push(`axe: ${v.impact} ${v.id}: ${v.help}`);
	} finally {
		await browser.close();
		rmSync(dir, { recursive: true, force: true });
	}
	return problems;
}
