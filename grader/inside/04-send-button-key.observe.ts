// Exercise 04 in the sandbox: journeys (sends, lost answers, reloads) played by the learner's key store, its
// calls one by one, and afterAnswer handed one answer with a submission that counts its finish() calls.
import { MemoryStorage, type StorageMethod } from '#harness/client/memory-storage.ts';
import { playJourney } from '#harness/client/play.ts';
import { entryName } from '#harness/client/model.ts';
import { saidError, type Code, type Observers } from './observer.ts';

// One page's key store over a storage that may hold an entry and may start failing: what each call
// answered, and what the storage holds at the end (each text read as JSON where it is JSON).
export type StorageStep =
	| { do: 'pending' | 'finish' | 'reload' | 'heal' }
	| { do: 'begin'; body: { subject: string } }
	| { do: 'fail'; methods: StorageMethod[] };
export type StorageCase = { stored: string | null; steps: StorageStep[] };

function storageRun(code: Code, { stored, steps }: StorageCase) {
	const storage = new MemoryStorage(stored === null ? {} : { [entryName('support')]: stored });
	let made = 0;
	const newKey = () => `key-${++made}`;
	const open = () =>
		(code.submissions as (...args: unknown[]) => Record<string, (...a: unknown[]) => unknown>)(
			storage,
			'support',
			newKey
		);
	let page = open();
	const answers = steps.map((step) => {
		try {
			if (step.do === 'pending') return page.pending!() ?? null;
			if (step.do === 'begin') return page.begin!(step.body) ?? null;
			if (step.do === 'finish') page.finish!();
			if (step.do === 'reload') page = open();
			if (step.do === 'fail') storage.fail(step.methods);
			if (step.do === 'heal') storage.heal();
			return null;
		} catch (error) {
			return { threw: saidError(error) };
		}
	});
	const contents = Object.fromEntries(
		Object.entries(storage.contents()).map(([name, text]) => {
			try {
				return [name, { json: JSON.parse(text) as unknown }];
			} catch {
				return [name, { text }];
			}
		})
	);
	return JSON.parse(JSON.stringify({ answers, contents })) as unknown;
}

// afterAnswer(submission, answer), as the tests call it: what the form shows, and how often it called finish().
function answerRun(code: Code, answer: unknown) {
	let finished = 0;
	const submission = {
		pending: () => ({ key: 'key-1', body: { subject: 'Cannot sign in' } }),
		begin: () => ({ key: 'key-1', body: { subject: 'Cannot sign in' } }),
		finish: () => void (finished += 1)
	};
	try {
		const shows = (code.afterAnswer as (s: unknown, a: unknown) => unknown)(submission, answer) ?? null;
		return JSON.parse(JSON.stringify({ shows, finished })) as unknown;
	} catch (error) {
		return { threw: saidError(error), finished };
	}
}

export const observers: Observers = {
	answer: ({ 'submission.ts': code }, input) => answerRun(code, input),
	storage: ({ 'submission.ts': code }, input) => storageRun(code, input as StorageCase),
	journey: ({ 'submission.ts': code }, journey) => {
		const played = playJourney(journey, code as never);
		return {
			...played,
			threw: played.threw && { step: played.threw.step, error: saidError(played.threw.error) }
		};
	}
};
