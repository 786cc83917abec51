// The two reductions that make 06's explorations cheap, held to the explorations they stand for.
// - The overlaps' sleep set (two orders that differ only by two steps that share no lock and are not commits are
//   played once) must end in the same verdict, word for word, and reach the same endings (answers, errors,
//   tickets) as every order played to its end.
// - The crash sharing (points that leave the same commits done share one crash and one retry) must record the
//   very crashes, byte for byte as the grader's observer sends them, with the same verdict at each point, as
//   every point played with its own crash and retry.
// For the solution and named wrong solutions, applied in memory as tools/wrong applies them. A route that makes
// values at random (key-per-attempt-server-side's keys) draws others at each play: its verdicts are compared
// with those values hidden, as the diagnosis hides them. A route that takes other steps when played again has
// every point played (crash-points.test.ts).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { patchedFiles, wrongSolution } from '../../lib/wrong-solutions.ts';
import { withRandomHidden } from '../../grader/trusted/diagnose.ts';
import { workbookRoot } from '../core/manifest.ts';
import type { Sequence } from './calls.ts';
import { everyPoint, exploreCrashPoints, sentCrash, tellCrash, type RecordedCrash } from './crash-points.ts';
import { MemoryStore } from './memory-store.ts';
import { exploreOverlaps, overlaps, type Interleaving } from './overlaps.ts';
import type { EndpointCode } from './play.ts';
import { randomSequences } from './sequences.ts';

// Wrong solutions each exploration catches, and one it does not: the overlaps' and the crash points' own.
const overlapWrongs = [
	'no-lock-waits-on-the-key',
	'webhook-loser-skips-the-subject-check',
	'receipt-saved-after-the-ticket-commits'
];
const crashWrongs = [
	'key-saved-in-its-own-transaction',
	'receipt-saved-after-the-ticket-commits',
	'key-per-attempt-server-side',
	'fingerprint-of-the-subject-only'
];
const wrongs = [...new Set([...overlapWrongs, ...crashWrongs])];

// A wrong solution's endpoint.ts as its patch makes it, written in a folder that imports like the workbook.
const scratch = mkdtempSync(join(tmpdir(), 'endpoint-reductions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
writeFileSync(
	join(scratch, 'package.json'),
	JSON.stringify({ type: 'module', imports: { '#harness/*': './harness/*' } })
);
symlinkSync(join(workbookRoot, 'harness'), join(scratch, 'harness'), 'dir');
async function wrongCode(name: string): Promise<EndpointCode> {
	const folder = join(scratch, name);
	mkdirSync(folder);
	writeFileSync(join(folder, 'endpoint.ts'), patchedFiles(wrongSolution(name))['endpoint.ts']!);
	return (await import(pathToFileURL(join(folder, 'endpoint.ts')).href)) as EndpointCode;
}

let loaded: Promise<Map<string, EndpointCode>> | undefined;
// The solution, then the wrong solutions named, each loaded once.
async function subjects(names: string[]): Promise<[string, EndpointCode][]> {
	loaded ??= Promise.all(wrongs.map(async (name) => [name, await wrongCode(name)] as const)).then(
		(patched) => new Map(patched)
	);
	const codes = await loaded;
	return [
		['the solution', solution],
		...names.map((name): [string, EndpointCode] => [name, codes.get(name)!])
	];
}

// What an interleaving ended in, in a form two explorations can compare.
const ending = ({ endings, tickets }: Interleaving) =>
	JSON.stringify([
		endings.map(({ answer, error }) =>
			answer ? [answer.status, answer.body, answer.replayed] : String(error)
		),
		tickets
	]);

async function overlapRun(code: EndpointCode, index: number, sleepSet: boolean) {
	const endings = new Set<string>();
	let played = 0;
	const record = (interleaving: Interleaving) => (played++, endings.add(ending(interleaving)));
	const problem = await exploreOverlaps(code, overlaps()[index]!, 5_000, { sleepSet, played: record });
	return { problem, endings: [...endings].sort(), played };
}

const copy = async (store: unknown) => (store as MemoryStore).copy();
// Every crash recorded, each as the grader's observer sends it and with its verdict (tellCrash), random values
// hidden.
async function crashRun(code: EndpointCode, sequence: Sequence, share: boolean) {
	const recorded: RecordedCrash[] = [];
	const record = (crash: RecordedCrash) => recorded.push(crash);
	await exploreCrashPoints(code, sequence, new MemoryStore(), copy, everyPoint, record, { share });
	return recorded.map((crash, i) => ({
		at: `request step ${crash.step + 1}, crash point ${crash.judged.at + 1}`,
		sent: JSON.stringify(sentCrash(crash, recorded[i - 1])),
		verdict: withRandomHidden(tellCrash(sequence, crash) ?? 'every promise kept')
	}));
}
type Crashes = Awaited<ReturnType<typeof crashRun>>;

// The first crash two explorations recorded apart, said: where, and both. A route that makes random values
// (key-per-attempt-server-side's keys) records other values at each play, so only its verdicts are compared.
function firstApart(shared: Crashes, every: Crashes): string | null {
	const random = every.some(({ sent }) => withRandomHidden(sent) !== sent);
	for (let i = 0; i < Math.max(shared.length, every.length); i++) {
		const [a, b] = [shared[i], every[i]];
		const where = (a ?? b)!.at;
		if (!a || !b) return `${where}: recorded ${a ? 'shared only' : 'with every point played only'}`;
		if (a.verdict !== b.verdict) return `${where}: shared, ${a.verdict}\nevery point played, ${b.verdict}`;
		if (!random && a.sent !== b.sent)
			return `${where}: recorded apart\n  shared: ${a.sent}\n  every point played: ${b.sent}`;
	}
	return null;
}

// Random sequences, as the loop and the grader draw them: tickets and webhooks, failing steps, retries, waits
// around the retention.
const sequences = fc
	.sample(randomSequences, { seed: 29, numRuns: 12 })
	.map((sequence, i) => ({ name: `random sequence ${i + 1} of seed 29`, sequence }));
const limit = { timeout: 240_000 };

describe("06's reduced explorations tell what the full ones tell", () => {
	it(
		'the overlaps: the sleep set ends in the same verdict and reaches the same endings as every order',
		limit,
		async () => {
			const reduced = { played: 0, of: 0 };
			for (const [who, code] of await subjects(overlapWrongs))
				for (const [index, overlap] of overlaps().entries()) {
					const [sleeping, every] = [
						await overlapRun(code, index, true),
						await overlapRun(code, index, false)
					];
					const where = `${who}, overlap "${overlap.name}"`;
					expect(sleeping.problem, `${where}: the verdict`).toBe(every.problem);
					expect(sleeping.endings, `${where}: the endings reached`).toEqual(every.endings);
					reduced.played += sleeping.played;
					reduced.of += every.played;
				}
			expect(
				reduced.played,
				`the sleep set plays fewer orders to their end than the ${reduced.of} there are`
			).toBeLessThan(reduced.of);
		}
	);

	it('the crash points: shared crashes record what every point played records', limit, async () => {
		const problems = new Set<string>();
		for (const [who, code] of await subjects(crashWrongs))
			for (const { name, sequence } of sequences) {
				const [shared, every] = [await crashRun(code, sequence, true), await crashRun(code, sequence, false)];
				expect(firstApart(shared, every), `${who}, ${name}`).toBeNull();
				if (every.some(({ verdict }) => verdict !== 'every promise kept')) problems.add(who);
			}
		// The comparison reaches broken promises too, not only kept ones.
		expect([...problems].sort()).toEqual([
			'key-per-attempt-server-side',
			'key-saved-in-its-own-transaction',
			'receipt-saved-after-the-ticket-commits'
		]);
	});
});
