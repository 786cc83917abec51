// Which of the lesson's mistakes a failing learner made, recognised by what their code does, never guessed.
//
//   const diagnosis = diagnose(checks, learnerAnswers, mistakes);
//   // { kind: 'mistake', name: 'new-key-per-attempt', matched: 11, of: 11, … }
//   // { kind: 'unnamed', first: { check: '…', case: 3, of: 25 }, closest: { name, matched: 7, of: 11 } }
//
// The inputs that count for a mistake are those where the learner's answer or the mistake's diverges from
// the reference (the check's judge says so). On each of them the two agree when both diverge with the same
// answer (or, where answers may take another path, the same story from the judge). A learner whose answers
// agree with a mistake's on every such input made that mistake ("11 of 11"); anything less is said as what it
// is: not one of the named mistakes, with the closest one and how close when it agrees on half or more.
import type { Answer, Answers } from './answers.ts';
import type { PlannedCheck } from './expect.ts';
import type { Mistake } from './mistakes.ts';

export type Match = { name: string; mistake: string; matched: number; of: number };
export type Diagnosis =
	| (Match & {
			kind: 'mistake';
			lesson: string | null;
			hint: number | null;
			hintTitle: string | null;
			alike: string[];
	  })
	| { kind: 'unwritten' }
	| {
			kind: 'unnamed';
			// The first input where the learner's code went another way: the check and the case's number.
			first: { check: string; case: number; of: number; heldOut: boolean; problem: string };
			closest: Match | null;
	  };

const diverges = (answer: Answer | undefined) => answer !== undefined && answer.problem !== null;
const agree = (a: Answer, b: Answer) =>
	diverges(a) && diverges(b) && (a.answer === b.answer || a.problem === b.problem);

function matchOf(learner: Answers, mistake: Mistake): Match {
	let matched = 0;
	let of = 0;
	for (const [c, row] of learner.entries())
		for (const [i, answer] of row.entries()) {
			const theirs = mistake.answers[c]?.[i];
			if (!diverges(answer) && !diverges(theirs)) continue;
			of++;
			if (theirs && agree(answer, theirs)) matched++;
		}
	return { name: mistake.name, mistake: mistake.mistake, matched, of };
}

// On how many of the inputs where either differs the judge tells the learner's and the mistake's whole story
// alike (or, with no story kept, the answers are the same to the letter).
const told = (a: Answer) => a.story ?? a.answer;
function exactlyAlike(learner: Answers, mistake: Mistake): number {
	let same = 0;
	for (const [c, row] of learner.entries())
		for (const [i, answer] of row.entries()) {
			const theirs = mistake.answers[c]?.[i];
			if ((diverges(answer) || diverges(theirs)) && theirs && told(theirs) === told(answer)) same++;
		}
	return same;
}

const unwritten = (learner: Answers) =>
	learner.flat().every((a) => !diverges(a) || a.answer?.startsWith('threw NotWrittenYet'));

export function diagnose(checks: PlannedCheck[], learner: Answers, mistakes: Mistake[]): Diagnosis | null {
	const firstCheck = learner.findIndex((row) => row.some(diverges));
	if (firstCheck < 0) return null;
	if (unwritten(learner)) return { kind: 'unwritten' };
	const matches = mistakes.map((mistake) => matchOf(learner, mistake));
	const full = matches.filter((m) => m.of > 0 && m.matched === m.of);
	if (full.length) {
		// Of the mistakes that agree everywhere, the one the judge tells the learner's whole story of on more
		// inputs is the closer: two whose first lines match but whose requests differ are told apart.
		const exact = new Map(
			full.map((m) => [
				m.name,
				exactlyAlike(
					learner,
					mistakes.find((n) => n.name === m.name)!
				)
			])
		);
		const order = (a: Match, b: Match) =>
			exact.get(b.name)! - exact.get(a.name)! || b.of - a.of || a.name.localeCompare(b.name);
		const [best, ...rest] = full.sort(order);
		// Two mistakes told alike on every input, in full, can't be told apart: both are named.
		const alike = rest.filter((m) => exact.get(m.name) === exact.get(best!.name));
		const named = mistakes.find((m) => m.name === best!.name)!;
		return {
			kind: 'mistake',
			...best!,
			lesson: named.lesson,
			hint: named.hint,
			hintTitle: named.hintTitle,
			alike: alike.map((m) => m.name)
		};
	}
	const i = learner[firstCheck]!.findIndex(diverges);
	const check = checks[firstCheck]!;
	const closest = matches
		.filter((m) => m.of > 0 && m.matched * 2 >= m.of)
		.sort((a, b) => b.matched / b.of - a.matched / a.of || a.name.localeCompare(b.name))[0];
	return {
		kind: 'unnamed',
		first: {
			check: check.name,
			case: i + 1,
			of: check.cases.length,
			heldOut: check.heldOut,
			problem: learner[firstCheck]![i]!.problem!
		},
		closest: closest ?? null
	};
}

// The diagnosis in one line, as the report and the class page say it.
export function saidDiagnosis(diagnosis: Diagnosis): string {
	switch (diagnosis.kind) {
		case 'mistake': {
			const alike = diagnosis.alike.length ? ` (answers alike: ${diagnosis.alike.join(', ')})` : '';
			return `${diagnosis.name}: your answers match it on ${diagnosis.matched} of ${diagnosis.of} inputs where it or you differ from the reference${alike}`;
		}
		case 'unwritten':
			return 'not written yet: the stub is still there';
		case 'unnamed': {
			const { check, case: n, of } = diagnosis.first;
			const closest = diagnosis.closest
				? `; closest: ${diagnosis.closest.name}, on ${diagnosis.closest.matched} of ${diagnosis.closest.of} inputs`
				: '';
			return `not one of the named mistakes: first differs on "${check}", case ${n} of ${of}${closest}`;
		}
	}
}
