import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedByContract } from './contract.ts';
import { madeUpSchedules } from './made-up.ts';
import { brokenStatusSchedule } from './property.ts';
import { statusSchedules } from './schedules.ts';
import { todo } from '../core/todo.ts';
import * as solution from '../../solutions/07-close-and-reopen/status.ts';
import { asItArrives, receiptsOnly } from '../../exercises/07-close-and-reopen/without-versions.ts';

describe("07's contract, as a model", () => {
	for (const schedule of statusSchedules())
		it(`expects what the versioned column of "${schedule.name}" expects`, () => {
			expect(expectedByContract(schedule.start, schedule.deliveries)).toEqual(schedule.expect.versioned);
		});
	// 2000 runs take about a second alone; a loaded machine can make that five, Vitest's default limit.
	it(
		'the solution meets it on 2000 made-up schedules of another seed (the loop plays 100)',
		{ timeout: 60_000 },
		() => {
			expect(brokenStatusSchedule(solution, { runs: 2000, seed: 7 })).toBeNull();
		}
	);
	it('the same seed draws the same schedules, which the grader relies on', () => {
		const draw = () => fc.sample(madeUpSchedules, { seed: 3, numRuns: 5 });
		expect(draw()).toEqual(draw());
	});
});

describe('the made-up schedules find what the shipped ones pin', () => {
	for (const [name, rules] of [
		['as it arrives', asItArrives],
		['receipts only', receiptsOnly]
	] as const)
		it(`${name} breaks the contract, told with the seed, the schedule in its words and both stores`, () => {
			const problem = brokenStatusSchedule(rules) ?? '';
			expect(problem).toContain('Replay it: STATUS_SEED=20260707 STATUS_PATH=');
			expect(problem).toContain('Schedule "made-up" (A made-up schedule): Made up by fast-check');
			expect(problem).toMatch(/delivery \d+ \(chg-\d+: .*\): expected .*, your code |Every answer was right/);
			expect(problem).toMatch(/ {2,}expected {2,}your code\n/);
		});
	it('a stub is said as a stub, with no seed and nothing shrunk', () => {
		const stub = { ...solution, addComment: () => todo('addComment', '07-close-and-reopen/status.ts') };
		expect(() => brokenStatusSchedule(stub)).toThrow('addComment is not written yet');
	});
});
