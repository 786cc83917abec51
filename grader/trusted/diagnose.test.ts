import { describe, expect, it } from 'vitest';
import type { Answers } from './answers.ts';
import { diagnose, saidDiagnosis } from './diagnose.ts';
import type { PlannedCheck } from './expect.ts';
import type { Mistake } from './mistakes.ts';

// Two checks of three inputs each; an answer is right (problem null) or says how it went wrong.
const checks = [
	{ name: 'given', heldOut: false, cases: [1, 2, 3] },
	{ name: 'held-out', heldOut: true, cases: [4, 5, 6] }
] as unknown as PlannedCheck[];
const right = { answer: 'ok 1', problem: null };
const wrong = (answer: string) => ({ answer: `ok ${answer}`, problem: `expected 1, got ${answer}` });
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
		const stub = { answer: 'threw NotWrittenYet: x', problem: 'threw NotWrittenYet: x' };
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
	it('two mistakes that answer alike everywhere are both named, never one picked as if it were sure', () => {
		const twin = mistake('twin', keyPerTry.answers);
		expect(diagnose(checks, keyPerTry.answers, [twin, keyPerTry])).toMatchObject({
			kind: 'mistake',
			name: 'key-per-try',
			alike: ['twin']
		});
	});
});
