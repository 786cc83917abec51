// The browser journeys: a user at the support form in Chromium, the network panel beside it, and the endpoint
// behind. Each checks what the page shows, the keys the endpoint received, and the tickets at the end.
import type { BrowserContext, Page } from 'playwright-core';
import type { Ticket } from '#harness/core/model.ts';
import type { Received } from '../server/backend.ts';
import type { Stack } from '../server/stack.ts';
import { Diverged, expectLocked, expectShows, expectSubject, next, press, settled, type } from './tab.ts';

export type Trip = { stack: Stack; context: BrowserContext; open: (path?: string) => Promise<Page> };
export type Journey = { name: string; title: string; keyStore: boolean; ride: (trip: Trip) => Promise<void> };

// Keys as the lesson's tests name them: A for the first one the endpoint saw, B for the next new one, …
export function keyNames(keys: (string | null)[]): Map<string | null, string> {
	const names = new Map<string | null, string>();
	for (const key of keys)
		if (!names.has(key)) names.set(key, key === null ? 'no key' : `key ${'ABCDEFGH'[names.size]}`);
	return names;
}

function received(stack: Stack, count: number, why: string): Received[] {
	const got = stack.backend.received;
	if (got.length !== count)
		throw new Diverged(
			`the endpoint to have received ${count} request${count === 1 ? '' : 's'} (${why})`,
			`it received ${got.length}`
		);
	return got;
}

function sameKey(got: Received[], a: number, b: number, why: string, meaning: string) {
	const names = keyNames(got.map((r) => r.key));
	const [first, second] = [got[a - 1]!.key, got[b - 1]!.key];
	if (first !== second)
		throw new Diverged(
			`request ${b} to carry the same key as request ${a} (${why})`,
			`request ${a} carried ${names.get(first)}, request ${b} ${names.get(second)}`,
			meaning
		);
}

function newKey(got: Received[], a: number, b: number, why: string, meaning: string) {
	if (got[a - 1]!.key === got[b - 1]!.key)
		throw new Diverged(
			`request ${b} to carry a new key (${why})`,
			`it carried request ${a}'s key again`,
			meaning
		);
}

async function tickets(stack: Stack, subjects: string[], meaning = ''): Promise<Ticket[]> {
	const now = await stack.backend.tickets();
	const said = (list: string[]) => list.map((s, i) => `#${i + 1} "${s}"`).join(', ') || 'none';
	const got = now.map((t) => t.subject);
	if (got.join('\n') !== subjects.join('\n'))
		throw new Diverged(`the tickets ${said(subjects)}`, `the endpoint holds ${said(got)}`, meaning);
	return now;
}

async function created(page: Page, id: number): Promise<void> {
	const now = await settled(page);
	if (now.state !== 'created' || !now.words.includes(`#${id}`))
		throw new Diverged(`the page to say "Ticket #${id} created."`, `it shows [${now.state}] ${now.words}`);
}

async function unsure(page: Page, why: string): Promise<void> {
	const now = await settled(page);
	if (now.state !== 'unsure' || !now.words.startsWith('Could not confirm'))
		throw new Diverged(
			`the page to say it could not confirm it was sent (${why})`,
			`it shows [${now.state}] ${now.words}`
		);
	await expectLocked(page, true, 'the outcome is unknown');
}

// The user types and presses Send, and the network loses the answer: the page is unsure, its fields locked.
async function sendAndLoseTheAnswer(page: Page, stack: Stack, words: string): Promise<void> {
	await expectShows(page, 'editing');
	await type(page, words);
	await next(page, stack, { do: 'lose' });
	await press(page, 'Send');
	await unsure(page, 'the answer was lost');
}

// The user presses Try again and the page settles: the endpoint has now received `count` requests.
async function tryAgain(page: Page, stack: Stack, count: number, why: string): Promise<Received[]> {
	await press(page, 'Try again');
	await settled(page);
	return received(stack, count, why);
}

const keyPerAttempt =
	'a new key for a retry: the endpoint cannot tell it from a new ticket. Keep the key of an unfinished submission until a definite answer comes back.';
const subject = 'Cannot sign in';

export const journeys: Journey[] = [
	{
		name: 'lost-response',
		title: 'The response is lost after the endpoint created the ticket; Try again replays ticket 1',
		keyStore: true,
		async ride({ stack, open }) {
			const page = await open();
			await sendAndLoseTheAnswer(page, stack, subject);
			await tickets(stack, [subject]);
			const got = await tryAgain(page, stack, 2, 'Send, then Try again');
			sameKey(got, 1, 2, 'Try again is the same request', keyPerAttempt);
			await created(page, 1);
			await tickets(stack, [subject], keyPerAttempt);
		}
	},
	{
		name: 'lost-response-then-reload',
		title: 'The response is lost and the tab reloads: the form comes back locked, with the same body and key',
		keyStore: true,
		async ride({ stack, open }) {
			const page = await open();
			await sendAndLoseTheAnswer(page, stack, subject);
			await page.reload();
			await unsure(page, 'after a reload, an unfinished submission is still unsure');
			await expectSubject(page, subject, 'the body kept in sessionStorage');
			const got = await tryAgain(page, stack, 2, 'Send, a reload, then Try again');
			sameKey(got, 1, 2, 'the reload kept the key in sessionStorage', keyPerAttempt);
			if (JSON.stringify(got[1]!.body) !== JSON.stringify(got[0]!.body))
				throw new Diverged('Try again to send the same body', `it sent ${JSON.stringify(got[1]!.body)}`);
			await created(page, 1);
			await tickets(stack, [subject]);
		}
	},
	{
		name: 'send-double-clicked',
		title: 'Send is double-clicked while the first request is in flight; the second gets 409',
		keyStore: true,
		async ride({ stack, open }) {
			const page = await open();
			await expectShows(page, 'editing');
			await type(page, subject);
			await next(page, stack, { do: 'delay', ms: 3000 });
			await next(page, stack, { do: 'answer', status: 409 });
			await press(page, 'Send', 2);
			const until = Date.now() + 3000;
			while (stack.network.exchanges[1]?.page !== 409) {
				if (Date.now() > until)
					throw new Diverged(
						'a second request, answered 409',
						`the network saw ${stack.network.exchanges.length} request(s)`
					);
				await page.waitForTimeout(20);
			}
			await unsure(page, '409: the first request is still being worked on, so the ticket may exist');
			await expectShows(page, 'created', 8000); // The first request's answer, held back by the network.
			await created(page, 1);
			const wire = stack.network.exchanges.map((e) => e.key);
			if (wire[0] !== wire[1])
				throw new Diverged(
					'both presses to carry the same key',
					'the second press carried a new key',
					keyPerAttempt
				);
			received(stack, 1, 'the 409 never reached the endpoint');
			await tickets(stack, [subject]);
		}
	},
	{
		name: 'refused-then-corrected',
		title:
			'An empty subject gets 400: refused, the fields open again, and the corrected request has a new key',
		keyStore: true,
		async ride({ stack, open }) {
			const page = await open();
			await expectShows(page, 'editing');
			await press(page, 'Send');
			const now = await settled(page);
			if (now.state !== 'refused' || !now.words.includes('HTTP 400'))
				throw new Diverged(
					'the page to say the server refused it (HTTP 400)',
					`it shows [${now.state}] ${now.words}`
				);
			await expectLocked(page, false, 'a refusal is a definite answer');
			await type(page, subject);
			await press(page, 'Send');
			await settled(page);
			const got = received(stack, 2, 'the empty one, then the corrected one');
			newKey(
				got,
				1,
				2,
				'a corrected ticket is a new request',
				'the submission was kept after a definite refusal, so the corrected ticket went out under the old key (and here with the old, empty body). A 4xx other than 409 is a definite no: finish() the submission.'
			);
			await created(page, 1);
			await tickets(stack, [subject]);
		}
	},
	{
		name: 'server-error-keeps-the-key',
		title: 'A 500 after the endpoint did the work: unsure, and Try again replays ticket 1',
		keyStore: true,
		async ride({ stack, open }) {
			const page = await open();
			await expectShows(page, 'editing');
			await type(page, subject);
			await next(page, stack, { do: 'answer', status: 500 });
			await press(page, 'Send');
			await unsure(page, 'a 5xx leaves the outcome open');
			const got = await tryAgain(page, stack, 2, 'Send, then Try again');
			sameKey(
				got,
				1,
				2,
				'a 500 is not a definite no',
				'the key was forgotten on a 5xx, but the work behind a 5xx may be done.'
			);
			await created(page, 1);
			await tickets(stack, [subject]);
		}
	},
	{
		name: 'new-ticket-after-success',
		title: 'A ticket is created, then the user writes a second one: a new key',
		keyStore: true,
		async ride({ stack, open }) {
			const page = await open();
			await expectShows(page, 'editing');
			await type(page, subject);
			await press(page, 'Send');
			await created(page, 1);
			await expectLocked(page, false, 'the ticket exists: the form is ready for the next one');
			await expectSubject(page, '', 'a created ticket clears the form');
			await type(page, 'Printer on fire');
			await press(page, 'Send');
			await created(page, 2);
			newKey(
				received(stack, 2, 'two tickets'),
				1,
				2,
				'a new ticket is a new request',
				'the key outlived its answer.'
			);
			await tickets(stack, [subject, 'Printer on fire']);
		}
	},
	{
		name: 'tab-closed',
		title: 'The tab is closed and a new one opened: sessionStorage is gone, nothing is pending',
		keyStore: true,
		async ride({ stack, open }) {
			const first = await open();
			await sendAndLoseTheAnswer(first, stack, subject);
			await first.close();
			const second = await open();
			await expectShows(second, 'editing');
			await expectSubject(second, '', 'a new tab starts with an empty sessionStorage');
			await expectLocked(second, false, 'nothing is pending in a new tab');
			const stored = await second.evaluate(() => sessionStorage.length);
			if (stored !== 0)
				throw new Diverged('an empty sessionStorage in the new tab', `it holds ${stored} entries`);
			await type(second, 'Printer on fire');
			await press(second, 'Send');
			await created(second, 2);
			newKey(received(stack, 2, 'one from each tab'), 1, 2, 'the new tab knows nothing of the old one', '');
			await tickets(stack, [subject, 'Printer on fire']);
		}
	},
	{
		name: 'two-tabs',
		title: 'Two tabs, each with its own pending submission, each retried after a reload',
		keyStore: true,
		async ride({ stack, open }) {
			const [a, b] = [await open(), await open()];
			for (const [page, words] of [
				[a, 'Printer jam'],
				[b, 'VPN down']
			] as const)
				await sendAndLoseTheAnswer(page, stack, words);
			await Promise.all([a.reload(), b.reload()]);
			await expectSubject(a, 'Printer jam', 'the first tab keeps its own submission');
			await expectSubject(b, 'VPN down', 'the second tab keeps its own submission');
			await press(b, 'Try again');
			await settled(b);
			const got = await tryAgain(a, stack, 4, 'a send and a retry from each tab');
			newKey(got, 1, 2, 'two tabs are two requests', 'the tabs shared a key.');
			sameKey(got, 2, 3, "the second tab's retry", keyPerAttempt);
			sameKey(got, 1, 4, "the first tab's retry", keyPerAttempt);
			await created(b, 2);
			await created(a, 1);
			await tickets(stack, ['Printer jam', 'VPN down']);
		}
	},
	{
		name: 'a-new-key-per-attempt',
		title: 'The anti-pattern page makes a key per attempt: a lost response and Try again make two tickets',
		keyStore: false,
		async ride({ stack, open }) {
			const page = await open('/anti-pattern.html');
			await expectShows(page, 'editing');
			await type(page, subject);
			await next(page, stack, { do: 'lose' });
			await press(page, 'Send');
			const now = await settled(page);
			if (now.state !== 'unsure')
				throw new Diverged('the page to be unsure', `it shows [${now.state}] ${now.words}`);
			await press(page, 'Try again');
			await created(page, 2);
			newKey(received(stack, 2, 'Send, then Try again'), 1, 2, 'this page makes a key per attempt', '');
			await tickets(stack, [subject, subject]);
		}
	}
];
