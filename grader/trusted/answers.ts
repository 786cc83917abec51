// What one body of code answered on every input of an exercise's checks, in a form two answers compare by:
// the learner's (from the sandbox's observations) and each named mistake's (observed before any learner).
//
//   const said = answersOf(checks, (c, i) => observed.byCheck.get(c)?.get(i));   // Answers
//   said[c][i]   // { answer: 'ok {"kind":"created",…}', problem: null } or { …, problem: 'expected …' }
//
// answer is the canonical JSON of what came back (fields in one order), or the error's name and message, or
// null when nothing came back. problem is the first line of the check's judge, null where the answer is right:
// an input "diverges" when its problem is not null. story is the judge's whole message (or the whole error,
// or that nothing came back), null where the answer is right: what the diagnosis compares, its first line
// often the schedule's heading alone.
import { canonical } from '#harness/core/canonical.ts';
import type { PlannedCheck } from './expect.ts';
import { firstLine } from './shown.ts';

export type Said = { ok: unknown } | { threw: { name: string; message: string } } | undefined;
export type Answer = { answer: string | null; problem: string | null; story: string | null };
export type Answers = Answer[][];

export function answerOf(check: PlannedCheck, i: number, said: Said): Answer {
	if (!said) return { answer: null, problem: 'no answer came back', story: 'no answer came back' };
	if ('threw' in said) {
		const answer = `threw ${said.threw.name}: ${firstLine(said.threw.message)}`;
		return { answer, problem: answer, story: `threw ${said.threw.name}: ${said.threw.message}` };
	}
	let problem: string | null;
	try {
		problem = check.judge(check.cases[i], said.ok, check.expected[i]);
	} catch (error) {
		problem = `unreadable: ${error instanceof Error ? error.message : String(error)}`;
	}
	return {
		answer: `ok ${canonical(said.ok)}`,
		problem: problem === null ? null : firstLine(problem),
		story: problem
	};
}

export function answersOf(checks: PlannedCheck[], said: (c: number, i: number) => Said): Answers {
	return checks.map((check, c) => check.cases.map((_, i) => answerOf(check, i, said(c, i))));
}
