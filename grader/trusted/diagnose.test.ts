import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { sideBySide } from '#harness/core/report.ts';
import { wrongSolutions } from '../../lib/wrong-solutions.ts';
import type { Observers } from '../inside/observer.ts';
import { root } from '../sandbox/paths.ts';
import type { Answers } from './answers.ts';
import { diagnose, saidDiagnosis, withRandomHidden, type Diagnosis } from './diagnose.ts';
import { planExercise, plannedMistakes, type PlannedCheck } from './expect.ts';
import { observeMistakes, type Mistake } from './mistakes.ts';
import { observeFile } from './probe.ts';

// Two checks of three inputs each; an answer is right (problem null) or says how it went wrong.
const checks = [
	{ name: 'given', heldOut: false, cases: [1, 2, 3] },
	{ name: 'held-out', heldOut: true, cases: [4, 5, 6] }
] as unknown as PlannedCheck[];
const right = { answer: 'ok 1', problem: null, story: null };
const wrong = (answer: string) => {
	const problem = `expected 1, got ${answer}`;
	return { answer: `ok ${answer}`, problem, story: problem };
};
const mistake = (name: string, answers: Answers): Mistake => ({
	name,
	mistake: `the ${name} mistake`,
	lesson: null,
	hint: 2,
	hintTitle: null,
	answers
});
const keyPerTry = mistake('key-per-try', [
	[right, wrong('2'), right],
	[wrong('2'), right, right]
]);
const noReceipt = mistake('no-receipt', [
	[right, right, wrong('9')],
	[right, right, wrong('9')]
]);

describe('diagnose: a mistake recognised by what the code answers', () => {
	it('answers that agree with a mistake wherever either differs from the reference: that mistake, counted', () => {
		const d = diagnose(checks, keyPerTry.answers, [keyPerTry, noReceipt]);
		expect(d).toMatchObject({ kind: 'mistake', name: 'key-per-try', matched: 2, of: 2, alike: [] });
		expect(saidDiagnosis(d!)).toBe(
			'key-per-try: your answers match it on 2 of 2 inputs where it or you differ from the reference'
		);
	});
	it('one more input gone wrong: not the mistake, but the closest, said with how close', () => {
		const learner = [
			[right, wrong('2'), wrong('3')],
			[wrong('2'), right, right]
		];
		const d = diagnose(checks, learner, [keyPerTry, noReceipt]);
		expect(d).toMatchObject({ kind: 'unnamed', closest: { name: 'key-per-try', matched: 2, of: 3 } });
		expect(d?.kind === 'unnamed' && d.first).toMatchObject({ check: 'given', case: 2, of: 3 });
	});
	it('answers like no mistake: not one of the named mistakes, with the first input that went another way', () => {
		const learner = [
			[right, right, right],
			[right, wrong('7'), right]
		];
		expect(diagnose(checks, learner, [keyPerTry, noReceipt])).toMatchObject({
			kind: 'unnamed',
			first: { check: 'held-out', case: 2, of: 3, heldOut: true },
			closest: null
		});
	});
	it('wrong on the same inputs, but with other answers: not that mistake', () => {
		const learner = [
			[right, wrong('5'), right],
			[wrong('5'), right, right]
		];
		expect(diagnose(checks, learner, [keyPerTry, noReceipt])).toMatchObject({
			kind: 'unnamed',
			closest: null
		});
	});
	it('every answer right: nothing to diagnose; every answer the stub: not written yet', () => {
		expect(
			diagnose(
				checks,
				[
					[right, right, right],
					[right, right, right]
				],
				[keyPerTry]
			)
		).toBeNull();
		const stub = {
			answer: 'threw NotWrittenYet: x',
			problem: 'threw NotWrittenYet: x',
			story: 'threw NotWrittenYet: x'
		};
		expect(
			diagnose(
				checks,
				[
					[stub, stub, stub],
					[stub, stub, stub]
				],
				[keyPerTry]
			)
		).toEqual({ kind: 'unwritten' });
	});
	it('of two whose judge says the same first line, the one told in full alike is named, the other not alike', () => {
		// One turns a NUL away too late, the other a long subject too soon; a play's answer differs run to run.
		const story = (request: number) => ({
			answer: `ok a play, with timings that vary ${Math.random()}`,
			problem: 'schedule "refused"',
			story: `schedule "refused"\nrequest ${request} diverged`
		});
		const nul = mistake('nul', [
			[right, story(1), right],
			[right, right, right]
		]);
		const length = mistake('length', [
			[right, story(8), right],
			[right, right, right]
		]);
		// The learner's code is observed again: the same stories, other timings.
		for (const [name, request] of [
			['nul', 1],
			['length', 8]
		] as const) {
			const learner = [
				[right, story(request), right],
				[right, right, right]
			];
			expect(diagnose(checks, learner, [nul, length])).toMatchObject({ kind: 'mistake', name, alike: [] });
		}
	});
	it("the judge's first line alike (the schedule's heading), the rest of its story not: not that mistake", () => {
		const told = (comment: number) => ({
			answer: `ok comment ${comment}`,
			problem: 'schedule "comment-twice"',
			story: `schedule "comment-twice"\ndelivery 2: expected comment 1, your code commented: comment ${comment}`
		});
		const noReceipt = mistake('no-receipt', [
			[right, told(2), right],
			[right, right, right]
		]);
		const fromZero = [
			[right, told(0), right],
			[right, right, right]
		];
		expect(diagnose(checks, fromZero, [noReceipt])).toMatchObject({ kind: 'unnamed', closest: null });
		expect(diagnose(checks, noReceipt.answers, [noReceipt])).toMatchObject({ kind: 'mistake', matched: 1 });
	});
	it('stories that differ only in the values the code made at random are the same effect', () => {
		const keys = () => [crypto.randomUUID(), crypto.randomUUID()];
		const told = ([first, second]: string[]) => ({
			answer: `ok ${first} ${second}`,
			problem: 'schedule "same-key-same-body-replays"',
			story: `schedule "same-key-same-body-replays"\nrequest 2: got 201 {"id":2}\nkeys ${JSON.stringify([
				{ key: second, id: 2 },
				{ key: first, id: 1 }
			])}`
		});
		const perAttempt = mistake('key-per-attempt', [
			[right, told(keys()), right],
			[right, right, right]
		]);
		const learner = [
			[right, told(keys()), right],
			[right, right, right]
		];
		expect(diagnose(checks, learner, [perAttempt])).toMatchObject({ kind: 'mistake', matched: 1, of: 1 });
		// One key used twice is another effect than two keys.
		const [once] = keys();
		const oneKey = [
			[right, told([once!, once!]), right],
			[right, right, right]
		];
		expect(diagnose(checks, oneKey, [perAttempt])).toMatchObject({ kind: 'unnamed' });
	});
	it('rows a store lists by their random keys are the same effect in any order, in a table or a list', () => {
		// key-per-attempt-server-side on PostgreSQL: three keys made at random, listed by key, so which row comes
		// first is chance; the story tells them in the judge's table (side by side, or stacked when wide).
		const table = (statuses: number[], width: number) => {
			const rows = statuses.map((status) => `"${crypto.randomUUID()}" → ${status}`);
			return {
				answer: `ok ${rows.join(' ')}`,
				problem: 'Schedule "failure-saved-and-replayed"',
				story: `Schedule "failure-saved-and-replayed"\nrequest 2: expected status 500, got 201\n${sideBySide([
					{ label: 'request 1', expected: ['500'.padEnd(width)], actual: ['500'] },
					{ label: 'keys', expected: ['"k-1" → 500'], actual: rows }
				])}\nyours:\n${rows.map((row) => `  key ${row}`).join('\n')}`
			};
		};
		for (const width of [1, 60]) {
			const observed = (statuses: number[]) => [
				[right, table(statuses, width), right],
				[right, right, right]
			];
			const perAttempt = mistake('key-per-attempt-server-side', observed([201, 201, 500]));
			for (const order of [
				[201, 201, 500],
				[201, 500, 201],
				[500, 201, 201]
			])
				expect(diagnose(checks, observed(order), [perAttempt]), `${order} (width ${width})`).toMatchObject({
					kind: 'mistake',
					matched: 1,
					of: 1
				});
			// Other rows, with the same first line: another effect.
			expect(diagnose(checks, observed([201, 500, 500]), [perAttempt])).toMatchObject({ kind: 'unnamed' });
			expect(diagnose(checks, observed([201, 201]), [perAttempt])).toMatchObject({ kind: 'unnamed' });
		}
	});
	it('another path to the same effect ("What happened" told otherwise) is that mistake; the very path names it first', () => {
		const told = (path: string, end: string) => ({
			answer: `ok ${path} ${end}`,
			problem: 'schedule "provider-down"',
			story: `schedule "provider-down"\nthe outbox differs\n\nAfter the last step:\n  outbox #1 ${end}\n\nWhat happened:\n${path}`
		});
		const firstMarks = '  1. the relay marks row #1 sent\n  2. it sends #1: down';
		const thenMarks = '  1. the relay sends #1: down\n  2. it marks row #1 sent';
		const observed = (path: string, end: string) => [
			[right, told(path, end), right],
			[right, right, right]
		];
		const markFirst = mistake('mark-first', observed(firstMarks, 'sent'));
		const markAnyway = mistake('mark-anyway', observed(thenMarks, 'sent'));
		// Observed again, the learner's code took mark-first's very steps: it, and not the other as alike.
		expect(diagnose(checks, observed(firstMarks, 'sent'), [markFirst, markAnyway])).toMatchObject({
			kind: 'mistake',
			name: 'mark-first',
			alike: []
		});
		// Another language numbers its steps its own way, to the same end: both, none surer than the other.
		const goSteps = ' start the relay marks row #1 sent\n    1. it sends #1: down';
		expect(diagnose(checks, observed(goSteps, 'sent'), [markFirst, markAnyway])).toMatchObject({
			kind: 'mistake',
			name: 'mark-anyway',
			alike: ['mark-first']
		});
		// The same steps to another end: not that mistake.
		expect(diagnose(checks, observed(thenMarks, 'pending'), [markFirst, markAnyway])).toMatchObject({
			kind: 'unnamed'
		});
	});
	it('every answer counts, on a check whose requests run at once too: the player, not the machine, decides who goes first', () => {
		// receipt-saved-after-the-ticket-commits on two-deliveries-at-once, on PostgreSQL: the held request let go
		// runs first, so the same code ends the same way on every run (harness/endpoint/turns.test.ts).
		const secondTicket = mistake('second-ticket', [
			[right, wrong('first wins the race'), right],
			[wrong('2'), right, right]
		]);
		expect(diagnose(checks, secondTicket.answers, [secondTicket])).toMatchObject({
			kind: 'mistake',
			name: 'second-ticket',
			matched: 2,
			of: 2
		});
		// Another end of the same schedule is another effect: not that mistake.
		const raceWonTheOtherWay = [
			[right, wrong('second wins the race'), right],
			[wrong('2'), right, right]
		];
		expect(diagnose(checks, raceWonTheOtherWay, [secondTicket])).toMatchObject({ kind: 'unnamed' });
	});
	it('two mistakes that answer alike everywhere are both named, never one picked as if it were sure', () => {
		const twin = mistake('twin', keyPerTry.answers);
		expect(diagnose(checks, keyPerTry.answers, [twin, keyPerTry])).toMatchObject({
			kind: 'mistake',
			name: 'key-per-try',
			alike: ['twin']
		});
	});
});

// A fresh mistake (grader/samples/reserve/, which no check names) and the named one it fails beside, observed
// in this process the way the grader observes the named ones, on the inputs a grading with seed 7 plays.
const plainFile = pathToFileURL(join(root, 'grader', 'inside', 'plain.ts')).href;
async function diagnosedHere(exerciseId: string, fresh: string, named: string) {
	const exercise = exercises().find((e) => e.id === exerciseId)!;
	const plan = await planExercise(exercise, { seed: 7, checks: 2, runs: 25 });
	const mistakes = await plannedMistakes(plan);
	const { observers } = (await import(pathToFileURL(observeFile(exercise)).href)) as { observers: Observers };
	const { plain } = (await import(plainFile)) as { plain: (value: unknown) => unknown };
	const reserve = wrongSolutions(join(root, 'grader', 'samples', 'reserve'));
	const learners = await observeMistakes(
		exercise,
		plan.checks!,
		async (code, check, input) =>
			JSON.parse(JSON.stringify(plain(await observers[check.observer]!(code, input, { postgres: null })))),
		[...reserve.filter((w) => w.name === fresh), ...wrongSolutions().filter((w) => w.name === named)]
	);
	return learners.map((learner) => diagnose(plan.checks!, learner.answers, mistakes));
}

// On main these were named after the mistake beside them: the same inputs fail, the judge's first line (the
// schedule's heading) is the same, and what the code did is not.
describe('diagnose: a fresh mistake that fails where a named one fails, with other effects', () => {
	for (const [id, fresh, named] of [
		['07', 'comments-numbered-from-zero', 'comment-without-a-receipt'],
		['04', 'finished-keys-never-remembered', 'second-finish-forgets-the-key'],
		['05', 'relay-marks-a-row-the-bug-stopped', 'relay-swallows-every-error']
	] as const)
		it(`${fresh} (${id}) is not one of the named mistakes, and ${named} is still itself`, async () => {
			const [freshOne, namedOne] = await diagnosedHere(id, fresh, named);
			const said = (d: Diagnosis | null | undefined) => (d ? saidDiagnosis(d) : 'no diagnosis');
			expect(freshOne?.kind, said(freshOne)).toBe('unnamed');
			expect(namedOne, said(namedOne)).toMatchObject({ kind: 'mistake', name: named, alike: [] });
		}, 60_000);
});

describe('withRandomHidden: what a story says, without the values code makes at random', () => {
	it('hides UUIDs, timestamps, milliseconds and long random ids, each value by where it first appears', () => {
		const story = (a: string, b: string) =>
			`key ${a} saved at 2026-12-01T22:41:17.123Z (${1764628877123}), then ${b}, then ${a} again; id ${'V1StGXR8_Z5jdHi6B-myT'}`;
		const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
		expect(withRandomHidden(story(a, b))).toBe(
			'key ‹random 1› saved at ‹random 2› (‹random 3›), then ‹random 4›, then ‹random 1› again; id ‹random 5›'
		);
		expect(withRandomHidden(story(b, c))).toBe(withRandomHidden(story(a, b)));
		expect(withRandomHidden(story(a, a))).not.toBe(withRandomHidden(story(a, b)));
	});
	it("keeps what the code chose: the schedule's ids, keys and numbers", () => {
		const story =
			'Schedule "comment-twice": delivery 2 (chg-1, evt-42, key "k-1", ticket-confirmation/acme/1): comment 2 at version 12';
		expect(withRandomHidden(story)).toBe(story);
	});
	it('reads a JSON list ordered by its random values the same in either order', () => {
		const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
		const table = (rows: { key: string; id: number }[]) => `yours ${JSON.stringify({ keys: rows })}`;
		const one = { key: a, id: 1 };
		const two = { key: b, id: 2 };
		expect(withRandomHidden(table([one, two]))).toBe(withRandomHidden(table([two, one])));
		expect(withRandomHidden(table([one, two]))).not.toBe(withRandomHidden(table([one, { key: b, id: 3 }])));
	});
});
