import { describe, expect, it } from 'vitest';
import { judgeStatus, playStatus } from './play.ts';
import { statusSchedules } from './schedules.ts';
import type { Answer, Rules } from './model.ts';
import { asItArrives } from '../../exercises/07-close-and-reopen/without-versions.ts';

const schedule = statusSchedules().find((s) => s.name === 'close-three-times')!;
// asItArrives meets close-three-times in every column but for what it remembers; reshape its answers.
const reshaped = (change: (answer: Answer) => object): Rules => ({
	...asItArrives,
	setStatus: (store, c) => change(asItArrives.setStatus(store, c)) as Answer
});

describe('judging a status schedule', () => {
	it('takes the answer field by field, in any order', () => {
		const reordered = reshaped((a) => Object.fromEntries(Object.entries(a).reverse()));
		expect(judgeStatus(schedule, 'as-it-arrives', playStatus(schedule, reordered))).toBeNull();
	});
	it('shows the fields when an answer has one too many, where the words would read the same', () => {
		const extra = reshaped((a) => ({ ...a, ticketId: 1 }));
		const problem = judgeStatus(schedule, 'as-it-arrives', playStatus(schedule, extra));
		expect(problem).toContain(
			'delivery 1 (chg-1: close #1, decided on version 1): expected set: closed at version 2, your code returned {"kind":"set","status":"closed","ticketId":1,"version":2}'
		);
	});
	it('names the schedule, the delivery, both answers and both stores', () => {
		const problem = judgeStatus(schedule, 'versioned', playStatus(schedule, asItArrives));
		expect(problem).toContain('Schedule "close-three-times"');
		expect(problem).toContain('Every answer was right, but after the last delivery the tickets differ');
		expect(problem).toMatch(/≠ tickets +#1 closed, version 2 \(made by chg-1\) +#1 closed, version 2\n/);
	});
});
