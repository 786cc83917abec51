// A focused test told as the schedules tell theirs: the case, the call, what was expected against what the
// code returned, and what that usually means. A learner's first failure is then the lesson's story in the
// harness's words, never a bare `expected … to deeply equal …` (go/core/cases.go says the same in Go).
//
//   focusedCase('another tenant: not the same', said, (check) => {
//   	check('sameEvent(evt-42, …)', sameEvent(evt42, other), false, 'compare the three fields, each as sent');
//   });
import { expect, it } from 'vitest';
import { ScheduleMismatch } from './mismatch.ts';

export type Check = {
	// got must equal want (as toEqual says); call says what was done, means what a difference usually means.
	(call: string, got: unknown, want: unknown, means?: string): void;
	// act must not throw.
	quietly(call: string, act: () => unknown, means?: string): void;
};

// How a kind says its values: a submission, an outcome, a form state.
export type Say = (value: unknown) => string;

export function caseStory(name: string, call: string, want: string, got: string, means?: string): string {
	const meaning = means ? `\nWhat this usually means: ${means}.` : '';
	return `Case "${name}":\n${call}: expected ${want}, your code returned ${got}.${meaning}`;
}

export function checkFor(name: string, say: Say): Check {
	const check = (call: string, got: unknown, want: unknown, means?: string) => {
		try {
			expect(got).toEqual(want);
		} catch {
			throw new ScheduleMismatch(caseStory(name, call, say(want), say(got), means));
		}
	};
	check.quietly = (call: string, act: () => unknown, means?: string) => {
		try {
			act();
		} catch (error) {
			const threw = `a throw (${error instanceof Error ? error.message : String(error)})`;
			throw new ScheduleMismatch(caseStory(name, call, 'no throw', threw, means));
		}
	};
	return check;
}

// One focused test: its name is the case its failure names.
export function focusedCase(name: string, say: Say, body: (check: Check) => void): void {
	it(name, () => body(checkFor(name, say)));
}
