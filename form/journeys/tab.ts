// What a journey does with a tab and sees in it: the form, its status line, and the network panel beside it.
import type { Page } from 'playwright-core';
import type { FormStateKind } from '#harness/client/model.ts';
import type { Stack } from '../server/stack.ts';
import type { Fate } from '../server/network.ts';

// A step that went another way than the journey expects. The runner adds the wire, the page and the tickets.
export class Diverged extends Error {
	override name = 'Diverged';
	constructor(
		readonly expected: string,
		readonly got: string,
		readonly meaning = ''
	) {
		super(`expected ${expected}; ${got}`);
	}
}

export type Shows = { state: string; words: string };
type Kind = FormStateKind | 'threw';

export async function shows(page: Page): Promise<Shows> {
	const status = page.getByRole('status');
	const [state, words] = await Promise.all([status.getAttribute('data-state'), status.innerText()]);
	return { state: state ?? '(none)', words: words.trim() };
}

const said = ({ state, words }: Shows) => `[${state}] ${words}`;

// Waits (up to `ms`) for the status to be one of `kinds`, and fails saying what it showed instead.
export async function expectShows(page: Page, kinds: Kind | Kind[], ms = 5000): Promise<Shows> {
	const wanted = [kinds].flat();
	const until = Date.now() + ms;
	for (;;) {
		const now = await shows(page);
		if (wanted.includes(now.state as Kind)) return now;
		// A key store that threw stays thrown: no need to wait for it to change its mind.
		if (Date.now() > until || now.state === 'threw')
			throw new Diverged(`the page to show ${wanted.join(' or ')}`, `it shows ${said(now)}`);
		await page.waitForTimeout(50);
	}
}

// Waits until the page is no longer sending, and returns what it shows then.
export async function settled(page: Page, ms = 5000): Promise<Shows> {
	return expectShows(page, ['editing', 'unsure', 'created', 'refused', 'threw'], ms);
}

export const subjectField = (page: Page) => page.getByRole('textbox', { name: 'Subject' });
export const sendButton = (page: Page) => page.locator('form[aria-label="New ticket"] button[type=submit]');

// The user acts in the tab they look at. (A tab in the background also gets no animation frames, which
// Playwright waits for before it clicks.)
const look = (page: Page) => page.bringToFront();

export async function type(page: Page, subject: string): Promise<void> {
	await look(page);
	const field = subjectField(page);
	if (await field.isDisabled())
		throw new Diverged(`to type "${subject}" into the subject`, 'the field is locked', '');
	await field.fill(subject);
}

export async function press(page: Page, label: 'Send' | 'Try again', clicks = 1): Promise<void> {
	await look(page);
	const button = sendButton(page);
	const text = (await button.innerText()).trim();
	if (text !== label) throw new Diverged(`a button "${label}"`, `the button says "${text}"`);
	if (await button.isDisabled()) throw new Diverged(`"${label}" to be pressable`, `it is disabled`);
	if (clicks === 2) await button.dblclick();
	else await button.click();
}

// The fields are locked while the outcome is unknown, and open otherwise.
export async function expectLocked(page: Page, locked: boolean, why: string): Promise<void> {
	const disabled = await subjectField(page).isDisabled();
	if (disabled !== locked)
		throw new Diverged(
			`the subject field to be ${locked ? 'locked' : 'open for editing'} (${why})`,
			`it is ${disabled ? 'locked' : 'open'}`
		);
}

export async function expectSubject(page: Page, subject: string, why: string): Promise<void> {
	const value = await subjectField(page).inputValue();
	if (value !== subject)
		throw new Diverged(`the subject field to say "${subject}" (${why})`, `it says "${value}"`);
}

const fateButtons = {
	lose: 'Lose the next response',
	delay: 'Delay the next response',
	answer500: 'Answer 500',
	answer409: 'Answer 409'
} as const;

// Asks the network, through the panel beside the form, to do this to the next request.
export async function next(page: Page, stack: Stack, fate: Fate): Promise<void> {
	await look(page);
	const queued = stack.network.queue.length;
	if (fate.do === 'delay') await page.getByRole('spinbutton').fill(String(fate.ms / 1000));
	const name =
		fate.do === 'answer'
			? fate.status === 500
				? fateButtons.answer500
				: fateButtons.answer409
			: fateButtons[fate.do];
	await page.getByRole('button', { name, exact: true }).click();
	const until = Date.now() + 5000;
	while (stack.network.queue.length === queued) {
		if (Date.now() > until) throw new Error(`the panel's "${name}" did not reach the network`);
		await page.waitForTimeout(20);
	}
}
