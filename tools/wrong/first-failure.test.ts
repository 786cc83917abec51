import { describe, expect, it } from 'vitest';
import { bareAssertion } from './first-failure.ts';

describe("a first failure in the harness's words, not a runner's bare assertion", () => {
	it("calls Vitest's own assertion bare, with or without the test's message before it", () => {
		expect(
			bareAssertion("expected { kind: 'refused', status: 409 } to deeply equal { kind: 'unsure' }")
		).toMatch(/^expected/);
		expect(bareAssertion('with "42" stored: expected { Object (key, body) } to be null')).toMatch(
			/to be null$/
		);
		expect(
			bareAssertion('a definite answer finishes once: expected +0 to be 1 // Object.is equality')
		).not.toBeNull();
	});
	it("calls Go's got-and-want idiom bare, past its file:line prefix", () => {
		expect(bareAssertion('    contract.go:77: Begin on a reloaded page = {Key:key-2}; want key-1')).toBe(
			'Begin on a reloaded page = {Key:key-2}; want key-1'
		);
		expect(bareAssertion('    handler_test.go:17: SameEvent(a, b) = true, want false')).not.toBeNull();
	});
	it("lets the harness's stories through: schedules, journeys, cases, explorations", () => {
		const stories = [
			'Schedule "crash-before-commit" (The crash came first): delivery 1 …\ndelivery 2: expected created #1, your handler created #2.',
			'    tests.go:41: Journey "send-pressed-twice" (…): …\n  - support shows "refused (HTTP 409)"; expected "unsure (HTTP 409)".',
			'Case "begin() again continues it":\nbegin(edited): expected key-1 "Cannot sign in", your code returned key-2 "Cannot sign in".',
			'One relay run over three pending rows, the provider answering call by call: #1: accepted.\nexpected: sends #1'
		];
		for (const story of stories) expect(bareAssertion(story), story).toBeNull();
	});
	it('calls an empty message bare: it tells nothing', () => {
		expect(bareAssertion('\n  \n')).toBe('(no message)');
	});
});
