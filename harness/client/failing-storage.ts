// 04's storage property: fast-check makes up a tab's life (Send, a definite answer, a look at the form, reloads)
// over a storage whose methods start and stop refusing at random, and checks what the README promises
// whatever storage does: nothing is thrown; a submission this page finished never comes back on it (a late
// second answer, finish() again, included); Send again continues the pending submission with its key and
// body; and a key belongs to one body for the whole life of the tab.
//
//   exploreFailingStorage(submissions);             // an it() in 04's tests: 300 tab lives, a fixed seed
//   brokenStorageLife(submissions, { runs: 3000 }); // the failure's words, or null
import fc from 'fast-check';
import { it } from 'vitest';
import { MemoryStorage, storageMethods, type StorageMethod } from './memory-storage.ts';
import type { KeyStore, Pending, Submissions, TicketBody } from './model.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { saidBody } from './words.ts';

type Make = (storage: KeyStore, form: string, newKey: () => string) => Submissions<TicketBody>;
type Move =
	| { do: 'send'; subject: string }
	| { do: 'finish' }
	| { do: 'look' }
	| { do: 'reload' }
	| { do: 'refuse'; methods: StorageMethod[] }
	| { do: 'heal' };

const subjects = ['Cannot sign in', 'Charged twice'];
const move: fc.Arbitrary<Move> = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...subjects).map((subject): Move => ({ do: 'send', subject })) },
	{ weight: 3, arbitrary: fc.constant<Move>({ do: 'finish' }) },
	{ weight: 2, arbitrary: fc.constant<Move>({ do: 'look' }) },
	{ weight: 1, arbitrary: fc.constant<Move>({ do: 'reload' }) },
	{
		weight: 3,
		arbitrary: fc
			.subarray([...storageMethods], { minLength: 1 })
			.map((methods): Move => ({ do: 'refuse', methods }))
	},
	{ weight: 1, arbitrary: fc.constant<Move>({ do: 'heal' }) }
);
export const tabLives = fc.array(move, { maxLength: 10 });

function saidMove(m: Move): string {
	switch (m.do) {
		case 'send':
			return `Send ${JSON.stringify(m.subject)}: begin()`;
		case 'finish':
			return 'a definite answer: finish()';
		case 'look':
			return 'the form looks: pending()';
		case 'reload':
			return 'the tab reloads: submissions() again over the same storage';
		case 'refuse':
			return `storage starts refusing ${m.methods.join(', ')}`;
		case 'heal':
			return 'storage works again';
	}
}
const saidPending = (p: Pending<TicketBody> | null | undefined) =>
	p ? `{ key ${JSON.stringify(p.key)}, body ${saidBody(p.body)} }` : String(p);

// What this page knows: the submission it began or read (until finish), the keys it finished, every body seen.
type Page = { knows: Pending<TicketBody> | null; finished: Set<string> };

// null when the tab's life keeps every promise; otherwise which one broke, and at which move.
export function lifeProblem(make: Make, moves: readonly Move[]): { at: number; problem: string } | null {
	const storage = new MemoryStorage();
	let made = 0;
	const open = () => make(storage, 'support', () => `key-${++made}`);
	let form = open();
	let page: Page = { knows: null, finished: new Set() };
	const bodies = new Map<string, string>();
	for (const [at, m] of moves.entries()) {
		let got: Pending<TicketBody> | null = null;
		try {
			if (m.do === 'refuse') storage.fail(m.methods);
			if (m.do === 'heal') storage.heal();
			if (m.do === 'reload') [form, page] = [open(), { knows: null, finished: new Set() }];
			if (m.do === 'finish') form.finish();
			if (m.do === 'send') got = form.begin({ subject: m.subject });
			if (m.do === 'look') got = form.pending();
		} catch (error) {
			if (error instanceof NotWrittenYet) throw error;
			const why = error instanceof Error ? error.message : String(error);
			return { at, problem: `your code threw: ${why}. A failing storage must never reach the user.` };
		}
		if (m.do === 'finish') {
			if (page.knows) page.finished.add(page.knows.key);
			page.knows = null;
		}
		if (!got) continue;
		if (page.finished.has(got.key))
			return {
				at,
				problem: `${saidPending(got)} came back, though this page finished it: a finished submission is never offered again from the page that finished it, whatever storage refused, and however many times finish() was called.`
			};
		if (m.do === 'send' && page.knows && page.knows.key !== got.key)
			return {
				at,
				problem: `Send again while ${saidPending(page.knows)} was pending started ${saidPending(got)}: a retry continues the pending submission with its key and body.`
			};
		const body = JSON.stringify(got.body);
		const first = bodies.get(got.key);
		if (first !== undefined && first !== body)
			return {
				at,
				problem: `key ${JSON.stringify(got.key)} carried ${saidBody(JSON.parse(first))} and now ${saidBody(got.body)}: a key belongs to one body.`
			};
		bodies.set(got.key, body);
		page.knows = got;
	}
	return null;
}

const storageSeed = 4004;

// The shortest made-up tab life that breaks a promise, told move by move with the seed; null when none does.
export function brokenStorageLife(
	make: Make,
	settings: { runs?: number; seed?: number } = {}
): string | null {
	const seed = settings.seed ?? storageSeed;
	// A stub is said as a stub: one life played first shows it, before fast-check looks for the shortest.
	try {
		lifeProblem(make, fc.sample(tabLives, { seed, numRuns: 1 })[0]!);
	} catch (error) {
		if (error instanceof NotWrittenYet) throw new ScheduleMismatch(error.message);
		throw error;
	}
	const property = fc.property(tabLives, (moves) => lifeProblem(make, moves) === null);
	const details = fc.check(property, { numRuns: settings.runs ?? 300, seed });
	if (!details.failed || !details.counterexample) return null;
	const [moves] = details.counterexample;
	const { at, problem } = lifeProblem(make, moves)!;
	const told = moves.slice(0, at + 1).map((m, i) => `  move ${i + 1}: ${saidMove(m)}`);
	return [
		`A made-up tab life over a failing storage breaks a promise at move ${at + 1}: ${problem}`,
		`(the shortest fast-check found after ${details.numRuns} runs; seed ${details.seed}, path ${details.counterexamplePath})`,
		'',
		...told
	].join('\n');
}

export function exploreFailingStorage(make: Make, runs = 300): void {
	it(`made-up tab lives over a storage that refuses at random (${runs}, fast-check): nothing thrown, a finished submission never back on its page`, () => {
		const problem = brokenStorageLife(make, { runs });
		if (problem) throw new ScheduleMismatch(problem);
	});
}
