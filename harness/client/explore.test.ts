import { describe, expect, it } from 'vitest';
import { brokenJourney } from './explore.ts';
import { meaning, plain, right } from './mistakes.ts';
import { todo } from '../core/todo.ts';

describe('made-up journeys (fast-check) against the usual mistakes', () => {
	it('a plain key store keeps every promise', () => {
		expect(brokenJourney({ submissions: plain(), afterAnswer: right })).toBeNull();
	});
	it('a new key per attempt: a new key before a definite answer', () => {
		const problem = brokenJourney({ submissions: plain({ keyPerAttempt: true }), afterAnswer: right });
		expect(problem).toContain(
			'carried a new key, "key-2", though the form never heard a definite answer for "key-1"'
		);
		expect(problem).toMatch(/step 1: type "Problem 1" into support\n {2}step 2: send from support/);
	});
	// A key store that hands back the edited fields is not among these: the form locks its fields while the
	// outcome is unknown, so no made-up journey can bring an edit to a retry. 04's focused tests catch it.
	it('the key only in memory: a reload makes a new key', () => {
		const problem = brokenJourney({ submissions: plain({ memoryOnly: true }), afterAnswer: right });
		expect(problem).toContain('though the form never heard a definite answer');
		expect(problem).toContain('the tab reloads');
	});
	it('a stub is said as a stub, not as a broken promise', () => {
		const stub = () => todo('submissions', '04-send-button-key/submission.ts');
		const problem = brokenJourney({ submissions: stub, afterAnswer: right });
		expect(problem).toMatch(/^submissions is not written yet\./);
		expect(problem).not.toContain('breaks a promise');
	});
	it('forgetting the key on a 409 or a 5xx', () => {
		const problem = brokenJourney({ submissions: plain(), afterAnswer: meaning(() => true) });
		expect(problem).toContain('though the form never heard a definite answer');
	});
});
