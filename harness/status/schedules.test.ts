import { describe, expect, it } from 'vitest';
import { loadStatusSchedule, statusSchedules } from './schedules.ts';
import { brokenCopy } from '../core/broken-copy.ts';

const name = 'late-close-after-reopen';
const problemWith = brokenCopy('status', name, loadStatusSchedule);

describe('status schedule loading', () => {
	it("loads every status schedule, the issue's among them, in the lesson's order", () => {
		const names = statusSchedules().map((s) => s.name);
		expect(names.slice(0, 4)).toEqual([
			'close-three-times',
			'comment-twice',
			'close-retried-after-lost-acknowledgment',
			'late-close-after-reopen'
		]);
	});
	it('the original loads', () => {
		expect(() => problemWith(() => {})).toThrow('loaded without complaint');
	});
	it('names the file and a change that is not one of the two', () => {
		const message = problemWith((s) => (s.deliveries[1].change.kind = 'merge'));
		expect(message).toContain(`${name}.json: `);
		expect(message).toContain('deliveries[1].change.kind: must be one of "set-status", "add-comment"');
	});
	it('names a field that another kind of change takes', () => {
		expect(problemWith((s) => (s.deliveries[0].change.text = 'hi'))).toContain(
			'deliveries[0].change.text: not a field here (misspelled?)'
		);
	});
	it('names a status change without the version it was decided on', () => {
		expect(problemWith((s) => delete s.deliveries[2].change.decidedOn)).toContain(
			'deliveries[2].change.decidedOn: missing'
		);
	});
	it('names a change about a ticket the schedule does not start with', () => {
		expect(problemWith((s) => (s.deliveries[2].change.ticketId = 7))).toContain(
			'deliveries[2].change.ticketId: no ticket #7 in start'
		);
	});
	it('names an answer where the worker dies', () => {
		expect(problemWith((s) => (s.deliveries[0].fault = 'after-commit'))).toContain(
			'expect.as-it-arrives.answers[0]: the worker dies (after-commit): crashed'
		);
	});
	it('names an expectation with the wrong number of answers', () => {
		expect(problemWith((s) => s.expect.versioned.answers.pop())).toContain(
			'expect.versioned.answers: 2 answers for 3 deliveries'
		);
	});
	it('names a misspelled field in an answer', () => {
		const message = problemWith((s) => {
			const answer = s.expect.versioned.answers[2];
			answer.versoin = answer.version;
			delete answer.version;
		});
		expect(message).toContain('expect.versioned.answers[2].versoin: not a field here (misspelled?)');
	});
	it('names a status that is not open or closed', () => {
		expect(problemWith((s) => (s.start[0].status = 'pending'))).toContain(
			'start[0].status: must be one of "open", "closed"'
		);
	});
	it('names an answer that does not fit the change', () => {
		expect(problemWith((s) => (s.expect.versioned.answers[0] = { kind: 'commented', comment: 1 }))).toContain(
			'expect.versioned.answers[0]: a status change is never answered "commented"'
		);
	});
});
