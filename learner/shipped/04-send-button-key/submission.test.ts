import { describe } from 'vitest';
import { answerCases } from '#harness/client/answers.ts';
import { contractCase } from '#harness/client/cases.ts';
import { exploreKeyStore } from '#harness/client/explore.ts';
import { exploreFailingStorage } from '#harness/client/failing-storage.ts';
import { playClientJourneys } from '#harness/client/tests.ts';
import { heading } from '#harness/core/manifest.ts';
import { MemoryStorage } from '#harness/client/memory-storage.ts';
import { entryName, type Submissions, type TicketBody } from '#harness/client/model.ts';
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
	// The journeys first, as in Go: a mistake they catch is told as the story of a tab's life.
	playClientJourneys({ submissions, afterAnswer });
	exploreKeyStore({ submissions, afterAnswer });

	describe("the lesson's contract: what its submission.ts already does", () => {
		describe('submissions: one key per request the user means to send', () => {
			contractCase('nothing is pending before the first Send', (check) => {
				check('pending() on a new form', form().store.pending(), null);
			});
			contractCase(
				'begin() starts a submission with a key from newKey() and the body; pending() returns it',
				(check) => {
					const { store } = form();
					check('begin(signIn)', store.begin(signIn), { key: 'key-1', body: signIn });
					check('pending() after it', store.pending(), { key: 'key-1', body: signIn });
				}
			);
			contractCase(
				'begin() again continues it: the original key and body, even after the fields were edited',
				(check) => {
					const { store, newKey } = form();
					store.begin(signIn);
					check(
						'begin(edited) after begin(signIn)',
						store.begin(edited),
						{ key: 'key-1', body: signIn },
						'a retry, not a new request'
					);
					check('newKey() calls', newKey.made(), 1, 'newKey() is called once per request, not per attempt');
				}
			);
			contractCase('after finish(), the next begin() is a new request with a new key', (check) => {
				const { store } = form();
				store.begin(signIn);
				store.finish();
				check('pending() after finish()', store.pending(), null);
				check('begin(edited) after finish()', store.begin(edited), { key: 'key-2', body: edited });
			});
			contractCase(
				'a reload keeps it: submissions() over the same storage finds the same key and body',
				(check) => {
					const { storage, store } = form();
					store.begin(signIn);
					const reloaded = submissions<TicketBody>(storage, 'support', counting());
					check('pending() on the reloaded page', reloaded.pending(), { key: 'key-1', body: signIn });
					check('begin(edited) on the reloaded page', reloaded.begin(edited), { key: 'key-1', body: signIn });
				}
			);
			contractCase(
				'begin() straight after a reload, with no pending() first, continues the stored submission',
				(check) => {
					const { storage, store } = form();
					store.begin(signIn);
					const reloaded = submissions<TicketBody>(storage, 'support', counting());
					check(
						'begin(edited) on the reloaded page',
						reloaded.begin(edited),
						{ key: 'key-1', body: signIn },
						'the new page must look in storage, not only in its memory'
					);
				}
			);
			contractCase('reading it on a reload leaves it stored: a second reload still finds it', (check) => {
				const { storage, store } = form();
				store.begin(signIn);
				submissions<TicketBody>(storage, 'support', counting()).pending();
				const again = submissions<TicketBody>(storage, 'support', counting());
				check(
					'pending() on a second reload',
					again.pending(),
					{ key: 'key-1', body: signIn },
					'the first reload must not use the entry up'
				);
			});
			contractCase(`it keeps one entry, "${support}", holding { key, body } as JSON`, (check) => {
				const { storage, store } = form();
				store.begin(signIn);
				const contents = storage.contents();
				check("the storage's entries after begin(signIn)", Object.keys(contents), [support]);
				check(`the entry "${support}", read as JSON`, JSON.parse(contents[support]!), {
					key: 'key-1',
					body: signIn
				});
			});
			contractCase('finish() removes its own entry and nothing else', (check) => {
				const storage = new MemoryStorage({ theme: 'dark' });
				const { store } = form(storage);
				const billing = submissions<TicketBody>(storage, 'billing', () => 'billing-key');
				store.begin(signIn);
				billing.begin({ subject: 'Charged twice' });
				store.finish();
				check("the storage's entries after support's finish()", Object.keys(storage.contents()).sort(), [
					entryName('billing'),
					'theme'
				]);
				check("billing's pending() key", billing.pending()?.key, 'billing-key');
			});
			contractCase('finish() with nothing pending is harmless (a late second reply)', (check) => {
				const { store } = form();
				check.quietly('finish() before any Send', () => store.finish());
				store.begin(signIn);
				store.finish();
				check.quietly('finish() after the submission was already finished', () => store.finish());
				check('begin(edited) after it', store.begin(edited), { key: 'key-2', body: edited });
			});
			contractCase('two forms never share a key', (check) => {
				const storage = new MemoryStorage();
				const newKey = counting();
				const a = submissions<TicketBody>(storage, 'support', newKey).begin(signIn);
				const b = submissions<TicketBody>(storage, 'billing', newKey).begin({ subject: 'Charged twice' });
				check("the keys of support's and billing's begin()", [a.key, b.key], ['key-1', 'key-2']);
			});
			contractCase('without newKey, each request gets a random UUID (crypto.randomUUID)', (check) => {
				const store = submissions<TicketBody>(new MemoryStorage(), 'support');
				const first = store.begin(signIn).key;
				store.finish();
				const second = store.begin(signIn).key;
				const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
				const isUuid = (key: string) => (uuid.test(key) ? 'a random UUID' : key);
				check('the first key', isUuid(first), 'a random UUID');
				check('the second key', isUuid(second), 'a random UUID');
				check(
					'the second key',
					second === first ? 'the first key again' : 'a new key',
					'a new key',
					'each request gets a key of its own'
				);
			});
			contractCase(
				'changing the object passed to begin() afterwards does not change what a retry sends',
				(check) => {
					const { store } = form();
					const fields = { subject: 'Cannot sign in' };
					store.begin(fields);
					fields.subject = 'Changed after Send';
					check(
						'begin() again, after the fields object was changed',
						store.begin(fields).body,
						signIn,
						"keep the body as it was sent, not the caller's object"
					);
				}
			);
		});

		describe('afterAnswer: what an answer means', () => {
			for (const { what, answer, shows, definite } of answerCases) {
				contractCase(
					`${what}: ${shows.kind}, ${definite ? 'finish()' : 'keep the key and body'}`,
					(check) => {
						let finished = 0;
						const spy: Submissions<TicketBody> = {
							pending: () => ({ key: 'key-1', body: signIn }),
							begin: () => ({ key: 'key-1', body: signIn }),
							finish: () => void (finished += 1)
						};
						check(`afterAnswer(…, ${what})`, afterAnswer(spy, answer), shows);
						check(
							'how many times afterAnswer called finish()',
							finished,
							definite ? 1 : 0,
							definite ? 'a definite answer finishes once' : 'an open outcome keeps the key, so never'
						);
					}
				);
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
				contractCase(`${what}: pending() is null, and Send starts a new request`, (check) => {
					const { storage, store } = form(new MemoryStorage({ [support]: text }));
					const damage = 'no form writes this entry: it is damaged, so nothing is pending';
					check(`pending() with ${text} stored`, store.pending(), null, damage);
					check(
						'what storage holds after pending()',
						storage.contents(),
						{},
						'pending() discards the damaged entry'
					);
					check('begin(signIn) after it', store.begin(signIn), { key: 'key-1', body: signIn });
					check(
						`the entry "${support}", read as JSON`,
						JSON.parse(storage.contents()[support]!),
						{ key: 'key-1', body: signIn },
						'the damaged entry is replaced'
					);
				});
			}
		});

		describe('a storage that throws never loses the request (the README says how)', () => {
			const first = { key: 'key-1', body: signIn };
			contractCase(
				'setItem throws (full): begin() still works, and Send again reuses the key and body',
				(check) => {
					const { storage, store } = form();
					storage.fail(['setItem']);
					check('begin(signIn) while setItem throws', store.begin(signIn), first);
					check('begin(edited) again', store.begin(edited), first, 'the page keeps what storage would not');
					check('pending()', store.pending(), first);
				}
			);
			contractCase(
				'every call throws (refused): nothing is thrown, and the page keeps one key until finish()',
				(check) => {
					const { storage, store } = form();
					storage.fail();
					check('pending() while every call throws', store.pending(), null);
					check("begin(signIn)'s key", store.begin(signIn).key, 'key-1');
					check(
						"begin(edited)'s key again",
						store.begin(edited).key,
						'key-1',
						'the page keeps one key until finish()'
					);
					check.quietly('finish()', () => store.finish());
					check('pending() after finish()', store.pending(), null);
					check('begin(edited) after finish()', store.begin(edited), { key: 'key-2', body: edited });
				}
			);
			contractCase('getItem starts throwing after Send: pending() still returns the submission', (check) => {
				const { storage, store } = form();
				store.begin(signIn);
				storage.fail(['getItem']);
				check(
					'pending() while getItem throws',
					store.pending(),
					first,
					'the page already knows it: it needs no storage to say so'
				);
			});
			contractCase(
				'getItem throws as a page opens: nothing pending, and the stored submission is left for a later page',
				(check) => {
					const { storage, store } = form();
					store.begin(signIn);
					storage.fail(['getItem']);
					check(
						'pending() on a page opened while getItem throws',
						submissions<TicketBody>(storage, 'support', counting()).pending(),
						null
					);
					storage.heal();
					const later = submissions<TicketBody>(storage, 'support', counting());
					check(
						'pending() on a later page',
						later.pending(),
						first,
						'an unreadable storage is no reason to delete what it holds'
					);
				}
			);
			contractCase(
				'removeItem throws on finish(): the finished key is never offered again on this page',
				(check) => {
					const { storage, store } = form();
					store.begin(signIn);
					storage.fail(['removeItem']);
					store.finish();
					check(
						'pending() after finish()',
						store.pending(),
						null,
						'key-1 is still in storage, and it is finished: not pending'
					);
					check('begin(edited) after it', store.begin(edited), { key: 'key-2', body: edited });
				}
			);
			contractCase(
				'removeItem throws, and a late second answer calls finish() again: the finished key still never comes back',
				(check) => {
					const { storage, store } = form();
					store.begin(signIn);
					storage.fail(['removeItem']);
					store.finish();
					store.finish(); // a second definite answer, late: nothing is pending now
					check(
						'pending() after the second finish()',
						store.pending(),
						null,
						'key-1 is still in storage, and it is finished: not pending'
					);
					check('begin(edited) after it', store.begin(edited), { key: 'key-2', body: edited });
				}
			);
			contractCase(
				'removeItem and setItem start throwing: no finished submission ever comes back, even after a later one',
				(check) => {
					const { storage, store } = form();
					store.begin(signIn);
					storage.fail(['setItem', 'removeItem']);
					store.finish(); // key-1 is finished, but its entry stays in storage
					check("begin(edited)'s key after finish()", store.begin(edited).key, 'key-2', 'a new request');
					store.finish(); // key-2 was never stored, and is finished too
					check(
						"pending() after key-2's finish()",
						store.pending(),
						null,
						'key-1 is still in storage, and it is finished: not pending'
					);
					check(
						'begin(signIn) after it',
						store.begin(signIn),
						{ key: 'key-3', body: signIn },
						'no finished key is offered to Send either'
					);
				}
			);
			contractCase(
				'a storage that refuses everything cannot survive a reload: the new page starts afresh',
				(check) => {
					const { storage, store } = form();
					storage.fail();
					store.begin(signIn);
					const reloaded = submissions<TicketBody>(storage, 'support', counting());
					check('pending() on the reloaded page', reloaded.pending(), null);
				}
			);
			exploreFailingStorage(submissions);
		});
	});
});
