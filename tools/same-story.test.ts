import { describe, expect, it } from 'vitest';
import { normalised, pairs, storyLines } from './same-story.ts';

describe('the same story in both languages', () => {
	it("reads Go's failure as TypeScript writes it: no file:line prefix, no indentation, finish() for Finish()", () => {
		expect(normalised('    tests.go:41: Journey "x" (y):   a definite answer: Finish()')).toBe(
			'Journey "x" (y): a definite answer: finish()'
		);
	});
	it('finds the heading and the first line saying what was expected', () => {
		const story = storyLines(
			'Schedule "two-workers-alternate" (Two workers): A and B.\nWorkers: A; B.\nWorker B: expected replayed #1, your code created #2.'
		);
		expect(story).toEqual({
			heading: 'Schedule "two-workers-alternate" (Two workers): A and B.',
			divergence: 'Worker B: expected replayed #1, your code created #2.'
		});
	});
	it('tells two stories apart when one word differs', () => {
		const ts = storyLines('Schedule "s" (t): u\ndelivery 2: expected created #1, your handler replayed #1.');
		const go = storyLines(
			'    play.go:9: Schedule "s" (t): u\n    delivery 2: expected created #1, your handler created #2.'
		);
		expect(go.heading).toBe(ts.heading);
		expect(go.divergence).not.toBe(ts.divergence);
	});
	it("reads Go's Begin(edited) as TypeScript's begin(edited)", () => {
		expect(normalised('    cases.go:9: Begin(edited) on the reloaded page')).toBe(
			'begin(edited) on the reloaded page'
		);
	});
	it('pairs, per exercise, one mistake told as a story and one told as a case, that both languages name', () => {
		const chosen = pairs();
		const kind = ({ ts }: (typeof chosen)[number]) =>
			`${ts.exercise} ${ts.says.some((words) => words.startsWith('Case "')) ? 'case' : 'story'}`;
		expect(chosen.length).toBeGreaterThanOrEqual(6);
		expect(new Set(chosen.map(kind)).size).toBe(chosen.length);
		expect(chosen.map(({ ts }) => ts.name)).toContain('begin-looks-only-in-memory');
		for (const { ts, go } of chosen) {
			expect(go.name).toBe(ts.name);
			expect(go.language).toBe('go');
		}
	});
});
