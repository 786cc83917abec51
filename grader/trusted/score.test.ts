import { describe, expect, it } from 'vitest';
import type { Exercise } from '#harness/core/manifest.ts';
import { scoreExercise, total, type Verdict } from './score.ts';

const exercise: Exercise = { id: '09', folder: '09-x', title: 'X', learnerFiles: ['x.ts'], weight: 1 };
const verdict = (status: Verdict['status'], more: Partial<Verdict> = {}): Verdict => ({
	file: 'exercises/09-x/x.test.ts',
	name: `test ${Math.random()}`,
	heldOut: false,
	status,
	message: status === 'passed' ? '' : 'went another way',
	free: false,
	...more
});

describe('scoreExercise: the one scoring function', () => {
	it('splits an exercise into equal points per test, and gives partial credit by tests passed', () => {
		const scored = scoreExercise(exercise, [
			verdict('passed'),
			verdict('failed'),
			verdict('passed'),
			verdict('not executed')
		]);
		expect(scored.tests.map((test) => test.max)).toEqual([2.5, 2.5, 2.5, 2.5]);
		expect(scored.score).toBe(5);
		expect(scored.max).toBe(10);
		expect(scored.firstFailure?.status).toBe('failed');
	});

	it('gives held-out tests their share of the points, whatever their number', () => {
		const verdicts = [
			verdict('passed'),
			verdict('passed'),
			...[1, 2, 3].map(() => verdict('failed', { heldOut: true }))
		];
		const scored = scoreExercise(exercise, verdicts, { pointsPerWeight: 10, heldOutShare: 0.5 });
		expect(scored.score).toBe(5);
		expect(scored.tests.filter((test) => test.heldOut).reduce((sum, test) => sum + test.max, 0)).toBeCloseTo(
			5,
			9
		);
	});

	it('makes a test that passes against the stubs worth nothing, and keeps it in the list', () => {
		const scored = scoreExercise(exercise, [verdict('passed', { free: true }), verdict('failed')]);
		expect(scored.tests.map((test) => [test.status, test.max])).toEqual([
			['passed', 0],
			['failed', 10]
		]);
		expect(scored.score).toBe(0);
	});

	it('is worth nothing when every test passes as shipped (and never divides by zero)', () => {
		const scored = scoreExercise(exercise, [verdict('passed', { free: true })]);
		expect([scored.score, scored.max]).toEqual([0, 0]);
	});

	it('gives all the points to the held-out tests when every given test is free, and uses the weight', () => {
		const heavy = { ...exercise, weight: 2 };
		const scored = scoreExercise(heavy, [
			verdict('passed', { free: true }),
			verdict('passed', { heldOut: true })
		]);
		expect([scored.score, scored.max]).toEqual([20, 20]);
	});

	it('adds up exactly, in hundredths, whatever the split', () => {
		const verdicts = Array.from({ length: 7 }, () => verdict('passed'));
		const scored = scoreExercise(exercise, [...verdicts, verdict('passed', { heldOut: true })]);
		expect(scored.tests.reduce((sum, test) => sum + Math.round(test.max * 100), 0)).toBe(1000);
		expect(scored.score).toBe(10);
		expect(total([scored, scored])).toEqual({ score: 20, max: 20 });
	});
});
