// Rides the browser journeys in Debian's Chromium against one key store, and tells each one's story.
//
//   const ridden = await rideJourneys('solution');            // or 'learner', 'wrong:<name>', and a list of names
//   for (const { journey, story } of ridden) …                // story is null when the journey went as expected
//
// One Chromium, one endpoint and one page server for the whole ride; each journey gets an emptied endpoint, an empty network
// and a new browser context (so new tabs, and sessionStorage that starts empty). Everything started here is
// stopped here, on failure too.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../lib/browser.ts';
import { saidBody } from '#harness/client/words.ts';
import type { Backend } from '../server/backend.ts';
import type { EndpointOption } from '../server/endpoint.ts';
import type { CodeChoice } from '../server/key-store.ts';
import { startStack, type Stack } from '../server/stack.ts';
import { journeys, keyNames, type Journey } from './journeys.ts';
import { Diverged, shows } from './tab.ts';
import { saidServer } from '../words.ts';

export type Ridden = { journey: Journey; story: string | null; ms: number };

// What a caller may share between rides, and stops itself: a browser, an endpoint; or which endpoint to start
// (exercise 06's solution on PostgreSQL unless told: these journeys test 04's key store, not 06).
export type Shared = { browser?: Browser; endpoint?: Backend | EndpointOption };

export async function rideJourneys(
	code: CodeChoice,
	names?: string[],
	shared: Shared = {}
): Promise<Ridden[]> {
	const chosen = names ? journeys.filter((journey) => names.includes(journey.name)) : journeys;
	const unknown = (names ?? []).filter((name) => !journeys.some((journey) => journey.name === name));
	if (unknown.length)
		throw new Error(
			`no browser journey named ${unknown.join(', ')} (there are ${journeys.map((j) => j.name).join(', ')})`
		);
	const browser = shared.browser ?? (await launchChromium());
	let stack: Stack | undefined;
	try {
		stack = await startStack({ code, endpoint: shared.endpoint ?? 'solution' });
		const ridden: Ridden[] = [];
		for (const journey of chosen) {
			const started = Date.now();
			const story = await rideOne(stack, journey, browser);
			ridden.push({ journey, story, ms: Date.now() - started });
		}
		return ridden;
	} finally {
		await stack?.stop();
		if (!shared.browser) await browser.close();
	}
}

async function rideOne(stack: Stack, journey: Journey, browser: Browser): Promise<string | null> {
	await stack.fresh();
	const context = await browser.newContext();
	context.setDefaultTimeout(5000);
	const pages: Page[] = [];
	const open = async (path = '/') => {
		const page = await context.newPage();
		pages.push(page);
		await page.goto(new URL(path, stack.url).href);
		return page;
	};
	try {
		await journey.ride({ stack, context, open });
		return null;
	} catch (error) {
		return await story(
			stack,
			journey,
			error,
			pages.filter((page) => !page.isClosed())
		);
	} finally {
		await context.close();
	}
}

async function story(stack: Stack, journey: Journey, error: unknown, pages: Page[]): Promise<string> {
	const lines = [`Journey "${journey.name}": ${journey.title}.`];
	if (error instanceof Diverged) {
		lines.push(`  expected ${error.expected}`);
		lines.push(`  but      ${error.got}`);
		if (error.meaning) lines.push('', `What this usually means: ${error.meaning}`);
	} else lines.push(`  it stopped: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
	const names = keyNames(stack.network.exchanges.map((exchange) => exchange.key));
	lines.push('', 'On the wire (what the network did, what the endpoint answered, what reached the page):');
	for (const e of stack.network.exchanges)
		lines.push(
			`  ${e.number}  ${names.get(e.key)}  ${saidBody(e.body)}  ${e.fate}; endpoint ${e.server === null ? 'never saw it' : saidServer(e)}; page ${e.page ?? 'still waiting'}`
		);
	if (stack.network.exchanges.length === 0) lines.push('  nothing was sent');
	for (const [i, page] of pages.entries()) {
		const now = await shows(page).catch(() => null);
		const tab = pages.length > 1 ? ` (tab ${i + 1})` : '';
		lines.push(`The page shows${tab}: ${now ? `[${now.state}] ${now.words}` : '(could not read it)'}`);
	}
	const tickets = await stack.backend.tickets();
	lines.push(`Tickets: ${tickets.map((t) => `#${t.id} ${JSON.stringify(t.subject)}`).join(', ') || 'none'}`);
	return lines.join('\n');
}
