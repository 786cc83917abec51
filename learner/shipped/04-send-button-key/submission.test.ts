import { describe, expect, it } from 'vitest';
import { answerCases } from '#harness/client/answers.ts';
import { exploreKeyStore } from '#harness/client/explore.ts';
import { exploreFailingStorage } from '#harness/client/failing-storage.ts';
import { playClientJourneys } from '#harness/client/tests.ts';
import { heading } from '#harness/core/manifest.ts';
import { MemoryStorage } from '#harness/client/memory-storage.ts';
import { entryName, type FormState, type Submissions, type TicketBody } from '#harness/client/model.ts';
import { afterAnswer, submissions } from './submission.ts';

const signIn: TicketBody = { subject: 'Cannot sign in' };
const edited: TicketBody = { subject: 'Cannot sign in on the train' };
const support = entryName('support');

// A key maker that counts, like the journeys': key-1, key-2, …
function counting() {
	let made = 0;
	const newKey = () => `key-${++made}`;
	return Object.assign(newKey, { made: () => made });
}

function form(storage = new MemoryStorage(), name = 'support', newKey = counting()) {
	return { storage, newKey, store: submissions<TicketBody>(storage, name, newKey) };
}

describe(heading('04'), () => {
	describe("the lesson's contract: what its submission.ts already does", () => {
		describe('submissions: one key per request the user means to send', () => {
			it('nothing is pending before the first Send', () => {
				expect(form().store.pending()).toBeNull();
			});
			it('begin() starts a submission with a key from newKey() and the body; pending() returns it', () => {
				const { store } = form();
				expect(store.begin(signIn)).toEqual({ key: 'key-1', body: signIn });
				expect(store.pending()).toEqual({ key: 'key-1', body: signIn });
			});
			it('begin() again continues it: the original key and body, even after the fields were edited', () => {
				const { store, newKey } = form();
				store.begin(signIn);
				expect(store.begin(edited), 'a retry, not a new request').toEqual({ key: 'key-1', body: signIn });
				expect(newKey.made(), 'newKey() is called once per request, not per attempt').toBe(1);
			});
			it('after finish(), the next begin() is a new request with a new key', () => {
				const { store } = form();
				store.begin(signIn);
				store.finish();
				expect(store.pending()).toBeNull();
				expect(store.begin(edited)).toEqual({ key: 'key-2', body: edited });
			});
			it('a reload keeps it: submissions() over the same storage finds the same key and body', () => {
				const { storage, store } = form();
				store.begin(signIn);
				const reloaded = submissions<TicketBody>(storage, 'support', counting());
				expect(reloaded.pending()).toEqual({ key: 'key-1', body: signIn });
				expect(reloaded.begin(edited)).toEqual({ key: 'key-1', body: signIn });
			});
			it('begin() straight after a reload, with no pending() first, continues the stored submission', () => {
				const { storage, store } = form();
				store.begin(signIn);
				const reloaded = submissions<TicketBody>(storage, 'support', counting());
				expect(reloaded.begin(edited), 'the new page must look in storage, not only in its memory').toEqual({
					key: 'key-1',
					body: signIn
				});
			});
			it('reading it on a reload leaves it stored: a second reload still finds it', () => {
				const { storage, store } = form();
				store.begin(signIn);
				submissions<TicketBody>(storage, 'support', counting()).pending();
				const again = submissions<TicketBody>(storage, 'support', counting());
				expect(again.pending(), 'the first reload must not use the entry up').toEqual({
					key: 'key-1',
					body: signIn
				});
			});
			it(`it keeps one entry, "${support}", holding { key, body } as JSON`, () => {
				const { storage, store } = form();
				store.begin(signIn);
				const contents = storage.contents();
				expect(Object.keys(contents)).toEqual([support]);
				expect(JSON.parse(contents[support]!)).toEqual({ key: 'key-1', body: signIn });
			});
			it('finish() removes its own entry and nothing else', () => {
				const storage = new MemoryStorage({ theme: 'dark' });
				const { store } = form(storage);
				const billing = submissions<TicketBody>(storage, 'billing', () => 'billing-key');
				store.begin(signIn);
				billing.begin({ subject: 'Charged twice' });
				store.finish();
				expect(Object.keys(storage.contents()).sort()).toEqual([entryName('billing'), 'theme']);
				expect(billing.pending()?.key).toBe('billing-key');
			});
			it('finish() with nothing pending is harmless (a late second reply)', () => {
				const { store } = form();
				expect(() => store.finish(), 'before any Send').not.toThrow();
				store.begin(signIn);
				store.finish();
				expect(() => store.finish(), 'after the submission was already finished').not.toThrow();
				expect(store.begin(edited)).toEqual({ key: 'key-2', body: edited });
			});
			it('two forms never share a key', () => {
				const storage = new MemoryStorage();
				const newKey = counting();
				const a = submissions<TicketBody>(storage, 'support', newKey).begin(signIn);
				const b = submissions<TicketBody>(storage, 'billing', newKey).begin({ subject: 'Charged twice' });
				expect([a.key, b.key]).toEqual(['key-1', 'key-2']);
			});
			it('without newKey, each request gets a random UUID (crypto.randomUUID)', () => {
				const store = submissions<TicketBody>(new MemoryStorage(), 'support');
				const first = store.begin(signIn).key;
				store.finish();
				const second = store.begin(signIn).key;
				const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
				expect(first).toMatch(uuid);
				expect(second).toMatch(uuid);
				expect(second).not.toBe(first);
			});
			it('changing the object passed to begin() afterwards does not change what a retry sends', () => {
				const { store } = form();
				const fields = { subject: 'Cannot sign in' };
				store.begin(fields);
				fields.subject = 'Changed after Send';
				expect(store.begin(fields).body).toEqual(signIn);
			});
		});

		describe('afterAnswer: what an answer means', () => {
			for (const { what, answer, shows, definite } of answerCases) {
				it(`${what}: ${shows.kind}, ${definite ? 'finish()' : 'keep the key and body'}`, () => {
					let finished = 0;
					const spy: Submissions<TicketBody> = {
						pending: () => ({ key: 'key-1', body: signIn }),
						begin: () => ({ key: 'key-1', body: signIn }),
						finish: () => void (finished += 1)
					};
					expect(afterAnswer(spy, answer)).toEqual(shows);
					expect(
						finished,
						definite
							? 'how many times afterAnswer called finish(): a definite answer finishes once'
							: 'how many times afterAnswer called finish(): an open outcome keeps the key, so never'
					).toBe(definite ? 1 : 0);
				});
			}
		});
	});

	describe('beyond the lesson: damaged entries and a storage that throws (the README says why)', () => {
		describe('a damaged stored entry is no pending submission, never an error', () => {
			const damaged: [string, string][] = [
				['text that is not JSON', '{"key": "key-0", "body": '],
				['JSON null', 'null'],
				['a number', '42'],
				['a string', '"key-0"'],
				['an entry without a key', JSON.stringify({ body: signIn })],
				['an empty key', JSON.stringify({ key: '', body: signIn })],
				['a key that is not text', JSON.stringify({ key: 7, body: signIn })],
				['an entry without a body', JSON.stringify({ key: 'key-0' })],
				['a body that is not an object', JSON.stringify({ key: 'key-0', body: 'Cannot sign in' })],
				['a body that is null', JSON.stringify({ key: 'key-0', body: null })],
				['a body that is a list', JSON.stringify({ key: 'key-0', body: ['Cannot sign in'] })],
				['a body whose field is not text', JSON.stringify({ key: 'key-0', body: { subject: 7 } })],
				[
					'a body with one text field and one that is not',
					JSON.stringify({ key: 'key-0', body: { subject: 'Cannot sign in', priority: 2 } })
				]
			];
			for (const [what, text] of damaged) {
				it(`${what}: pending() is null, and Send starts a new request`, () => {
					const { storage, store } = form(new MemoryStorage({ [support]: text }));
					expect(store.pending(), `with ${text} stored`).toBeNull();
					expect(storage.contents(), 'pending() discards the damaged entry').toEqual({});
					expect(store.begin(signIn)).toEqual({ key: 'key-1', body: signIn });
					expect(JSON.parse(storage.contents()[support]!), 'the damaged entry is replaced').toEqual({
						key: 'key-1',
						body: signIn
					});
				});
			}
		});

		describe('a storage that throws never loses the request (the README says how)', () => {
			it('setItem throws (full): begin() still works, and Send again reuses the key and body', () => {
				const { storage, store } = form();
				storage.fail(['setItem']);
				expect(store.begin(signIn)).toEqual({ key: 'key-1', body: signIn });
				expect(store.begin(edited)).toEqual({ key: 'key-1', body: signIn });
				expect(store.pending()).toEqual({ key: 'key-1', body: signIn });
			});
			it('every call throws (refused): nothing is thrown, and the page keeps one key until finish()', () => {
				const { storage, store } = form();
				storage.fail();
				expect(store.pending()).toBeNull();
				expect(store.begin(signIn).key).toBe('key-1');
				expect(store.begin(edited).key).toBe('key-1');
				expect(() => store.finish()).not.toThrow();
				expect(store.pending()).toBeNull();
				expect(store.begin(edited)).toEqual({ key: 'key-2', body: edited });
			});
			it('getItem starts throwing after Send: pending() still returns the submission', () => {
				const { storage, store } = form();
				store.begin(signIn);
				storage.fail(['getItem']);
				expect(store.pending()).toEqual({ key: 'key-1', body: signIn });
			});
			it('getItem throws as a page opens: nothing pending, and the stored submission is left for a later page', () => {
				const { storage, store } = form();
				store.begin(signIn);
				storage.fail(['getItem']);
				expect(submissions<TicketBody>(storage, 'support', counting()).pending()).toBeNull();
				storage.heal();
				const later = submissions<TicketBody>(storage, 'support', counting());
				expect(later.pending(), 'an unreadable storage is no reason to delete what it holds').toEqual({
					key: 'key-1',
					body: signIn
				});
			});
			it('removeItem throws on finish(): the finished key is never offered again on this page', () => {
				const { storage, store } = form();
				store.begin(signIn);
				storage.fail(['removeItem']);
				store.finish();
				expect(store.pending()).toBeNull();
				expect(store.begin(edited)).toEqual({ key: 'key-2', body: edited });
			});
			it('removeItem throws, and a late second answer calls finish() again: the finished key still never comes back', () => {
				const { storage, store } = form();
				store.begin(signIn);
				storage.fail(['removeItem']);
				store.finish();
				store.finish(); // a second definite answer, late: nothing is pending now
				expect(store.pending(), 'key-1 is still in storage, and it is finished: not pending').toBeNull();
				expect(store.begin(edited)).toEqual({ key: 'key-2', body: edited });
			});
			it('removeItem and setItem start throwing: no finished submission ever comes back, even after a later one', () => {
				const { storage, store } = form();
				store.begin(signIn);
				storage.fail(['setItem', 'removeItem']);
				store.finish(); // key-1 is finished, but its entry stays in storage
				expect(store.begin(edited).key, 'a new request').toBe('key-2');
				store.finish(); // key-2 was never stored, and is finished too
				expect(store.pending(), 'key-1 is still in storage, and it is finished: not pending').toBeNull();
				expect(store.begin(signIn), 'and not offered to Send either').toEqual({ key: 'key-3', body: signIn });
			});
			it('a storage that refuses everything cannot survive a reload: the new page starts afresh', () => {
				const { storage, store } = form();
				storage.fail();
				store.begin(signIn);
				const reloaded = submissions<TicketBody>(storage, 'support', counting());
				expect(reloaded.pending()).toBeNull();
			});
			exploreFailingStorage(submissions);
		});
	});

	playClientJourneys({ submissions, afterAnswer });
	exploreKeyStore({ submissions, afterAnswer });
});
