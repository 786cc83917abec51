import { describe, expect, it } from 'vitest';
import { clientJourneys } from './journeys.ts';
import { judgeJourney } from './judge.ts';
import { meaning, plain, right } from './mistakes.ts';
import { playJourney, type KeyStoreCode } from './play.ts';
import { todo } from '../core/todo.ts';

const journeys = new Map(clientJourneys().map((journey) => [journey.name, journey]));
function judged(name: string, code: KeyStoreCode): string {
	const journey = journeys.get(name)!;
	const problem = judgeJourney(journey, playJourney(journey, code));
	if (problem === null) throw new Error(`the wrong key store passed journey ${name}`);
	return problem;
}

describe('judging a client journey', () => {
	it('the plain key store passes the journeys that need no guards', () => {
		const code = { submissions: plain(), afterAnswer: right };
		for (const name of ['train-reload', 'send-pressed-twice', 'refused-then-corrected', 'two-forms'])
			expect(judgeJourney(journeys.get(name)!, playJourney(journeys.get(name)!, code)), name).toBeNull();
	});
	it('a new key per attempt: names train-reload, step 5, the keys, the replies and the tickets', () => {
		const message = judged('train-reload', {
			submissions: plain({ keyPerAttempt: true }),
			afterAnswer: right
		});
		expect(message).toContain('Journey "train-reload"');
		expect(message).toContain('step 5 (send from support: the reply arrives; a retry, not a new request)');
		expect(message).toContain('request 2 carried "key-2"; expected "key-1"');
		expect(message).toContain("must carry that submission's key");
		expect(message).toContain('support shows "created #2"; expected "created #1"');
		// Side by side: the second ticket stands only in your code's column, marked as a difference.
		expect(message).toMatch(/ {2}tickets \(end\) +#1 acme: Cannot sign in +#1 acme: Cannot sign in\n/);
		expect(message).toMatch(/^≠ {20,}#2 acme: Cannot sign in$/m);
	});
	it('an edit while the outcome is unknown is refused: the retry sends what was sent, whatever the key store does', () => {
		// A key store that would take the edit (it hands back the latest body) can't make it reach the wire:
		// the form locks its fields while it shows unsure. 04's focused tests catch that key store instead.
		const journey = journeys.get('train-reload')!;
		const played = playJourney(journey, { submissions: plain({ latestBody: true }), afterAnswer: right });
		expect(judgeJourney(journey, played)).toBeNull();
		expect(played.steps[3]!.locked, 'step 4, the edit after the reload').toBe(true);
		expect(played.requests[1]!.body).toEqual({ subject: 'Cannot sign in' });
	});
	it('a form that took the edit would be named: the step, and that the fields stay locked', () => {
		const journey = journeys.get('train-reload')!;
		const unlocked = { ...journey, steps: journey.steps.map((step) => ({ ...step, locked: undefined })) };
		const message = judgeJourney(
			unlocked,
			playJourney(unlocked, { submissions: plain(), afterAnswer: right })
		);
		expect(message).toContain('step 4');
		expect(message).toContain('the form refused this edit: its fields were still locked');
		const locked = {
			...journey,
			steps: journey.steps.map((step, i) => (i === 0 ? { ...step, locked: true as const } : step))
		};
		const took = judgeJourney(locked, playJourney(locked, { submissions: plain(), afterAnswer: right }));
		expect(took).toContain('the form took this type; expected it refused: the fields stay locked');
	});
	it('the key kept only in memory: the reload step shows an empty form', () => {
		const message = judged('train-reload', { submissions: plain({ memoryOnly: true }), afterAnswer: right });
		expect(message).toContain('step 3 (the tab reloads; the stored submission comes back, outcome unknown)');
		expect(message).toContain('support shows "editing"; expected "unsure (no answer)"');
	});
	it('one entry for every form: the second form reuses the first key and gets a 409', () => {
		const message = judged('two-forms', { submissions: plain({ oneEntry: true }), afterAnswer: right });
		expect(message).toContain('step 4 (send from billing: the endpoint is still working on it');
		expect(message).toContain('request 2 carried "key-1"; expected "key-2". This is a new request');
	});
	it('finish() that forgets only in memory: the reload brings the finished submission back', () => {
		const message = judged('finished-stays-finished', {
			submissions: plain({ finishInMemory: true }),
			afterAnswer: right
		});
		expect(message).toContain('step 3 (the tab reloads');
		expect(message).toContain('support shows "unsure (no answer)"; expected "editing"');
	});
	it('forgetting the key on a 409: the later Send makes a second ticket', () => {
		const forgetful = meaning((status) => status < 500);
		const message = judged('send-pressed-twice', { submissions: plain(), afterAnswer: forgetful });
		expect(message).toContain('step 5 (send from support: the reply arrives)');
		expect(message).toContain('request 3 carried "key-2"; expected "key-1"');
	});
	it('forgetting the key on a 500', () => {
		const message = judged('server-error-keeps-the-key', {
			submissions: plain(),
			afterAnswer: meaning(() => true)
		});
		expect(message).toContain('request 2 carried "key-2"; expected "key-1"');
	});
	it('keeping the key after a refusal: the corrected ticket carries the refused key', () => {
		const stubborn = meaning((status) => status < 300);
		const message = judged('refused-then-corrected', { submissions: plain(), afterAnswer: stubborn });
		expect(message).toContain('step 3 (send from support: the reply arrives; a new request)');
		expect(message).toContain('request 2 carried "key-1"; expected "key-2"');
		expect(message).toContain(
			'request 2 sent ""; expected "Invoice shows the wrong VAT". A new request sends what the fields say now.'
		);
	});
	it('a damaged entry thrown at the user: names the step and what was thrown', () => {
		const message = judged('damaged-entry-starts-afresh', { submissions: plain(), afterAnswer: right });
		expect(message).toContain('step 2 (the tab reloads; the damaged entry is discarded): your code threw:');
		expect(message).toContain('JSON');
	});
	it('a failing storage thrown at the user', () => {
		const message = judged('storage-full-keeps-the-key', { submissions: plain(), afterAnswer: right });
		expect(message).toContain('step 3 (send from support: the reply is lost): your code threw:');
		expect(message).toContain('getItem failed');
	});
	it('keys not from newKey(): says where keys come from', () => {
		const own: KeyStoreCode['submissions'] = (storage, form) => plain()(storage, form);
		const message = judged('train-reload', { submissions: own, afterAnswer: right });
		expect(message).toContain('Keys come from newKey()');
	});
	it('a stub: says which function to write, and where it stopped', () => {
		const stub: KeyStoreCode = {
			submissions: () => todo('submissions', '04-send-button-key/submission.ts'),
			afterAnswer: right
		};
		const message = judged('train-reload', stub);
		expect(message).toContain('submissions is not written yet');
		expect(message).toContain('stopped as the page opened, before step 1 of journey "train-reload"');
	});
});
