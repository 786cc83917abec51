// Exercise 04's focused tests told as its journeys are: the case, the call, what was expected against what
// the key store did, and what that usually means. A learner's first failure is then the lesson's story in
// the harness's words, never a bare `expected … to deeply equal …` (go/client/cases.go says the same).
//
//   contractCase('begin() again continues it', (check) => {
//   	check('begin(edited) after begin(signIn)', store.begin(edited), { key: 'key-1', body: signIn }, 'a retry …');
//   });
import { expect, it } from 'vitest';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { canonical } from '../core/canonical.ts';
import { saidRequest, saidState } from './words.ts';

export type Check = {
	// got must equal want; call says what was done, means what a difference usually means.
	(call: string, got: unknown, want: unknown, means?: string): void;
	// act must not throw.
	quietly(call: string, act: () => unknown, means?: string): void;
};

// A value as the journeys say it: a submission as its key and body, a form state as the form shows it.
export function said(value: unknown): string {
	if (value === null || value === undefined) return 'nothing';
	if (typeof value === 'string') return value;
	if (typeof value !== 'object') return String(value);
	if ('key' in value && 'body' in value) return saidRequest(value.key, value.body);
	if ('kind' in value) return saidState(value);
	return canonical(value);
}

export function caseStory(name: string, call: string, want: string, got: string, means?: string): string {
	const meaning = means ? `\nWhat this usually means: ${means}.` : '';
	return `Case "${name}":\n${call}: expected ${want}, your code returned ${got}.${meaning}`;
}

export function checkFor(name: string): Check {
	const check = (call: string, got: unknown, want: unknown, means?: string) => {
		// Equal as toEqual says, and told in the harness's words when not.
		try {
			expect(got).toEqual(want);
		} catch {
			throw new ScheduleMismatch(caseStory(name, call, said(want), said(got), means));
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
export function contractCase(name: string, body: (check: Check) => void): void {
	it(name, () => body(checkFor(name)));
}
