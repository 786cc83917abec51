// The one scoring function: every output (table, results.json, CSV) reads its numbers from here.
import type { Exercise } from '#harness/core/manifest.ts';

export type Status = 'passed' | 'failed' | 'not executed';
export type Verdict = {
	file: string;
	name: string;
	// Held-out tests are generated at grade time; given tests are the ones the learner has.
	heldOut: boolean;
	status: Status;
	message: string;
	// Passes against the untouched stubs: the learner did nothing for it, so it is worth nothing.
	free: boolean;
};
export type ScoredTest = Verdict & { score: number; max: number };
export type ScoredExercise = {
	exercise: Exercise;
	tests: ScoredTest[];
	score: number;
	max: number;
	// The first failing test that was worth points, for the table's red cell.
	firstFailure: ScoredTest | null;
	// Graded in Go, or in both languages (language.ts): which counted, and the line that says so.
	language?: 'TypeScript' | 'Go';
	note?: string;
};

export type Rules = {
	// An exercise is worth weight × pointsPerWeight points.
	pointsPerWeight: number;
	// The share of an exercise's points its held-out tests carry, when it has any.
	heldOutShare: number;
};
export const defaultRules: Rules = { pointsPerWeight: 10, heldOutShare: 0.5 };

// Points are counted in hundredths, so the tests' points always add up to the exercise's, exactly.
const cents = (points: number) => Math.round(points * 100);
const points = (cents: number) => cents / 100;

// C hundredths shared by n tests: equal shares, the first few one hundredth more.
function share(total: number, n: number): number[] {
	const each = Math.floor(total / n);
	return Array.from({ length: n }, (_, i) => each + (i < total - each * n ? 1 : 0));
}

// Points per test: the exercise's points split between given and held-out tests, then equally within each,
// leaving out tests that pass as shipped. Partial credit is the points of the tests that passed.
export function scoreExercise(
	exercise: Exercise,
	verdicts: Verdict[],
	rules: Rules = defaultRules
): ScoredExercise {
	const worth = cents(exercise.weight * rules.pointsPerWeight);
	const given = verdicts.filter((verdict) => !verdict.free && !verdict.heldOut);
	const heldOut = verdicts.filter((verdict) => !verdict.free && verdict.heldOut);
	const heldOutShare = given.length === 0 ? 1 : heldOut.length === 0 ? 0 : rules.heldOutShare;
	const heldOutCents = cents(points(worth) * heldOutShare);
	const maxima = new Map<Verdict, number>();
	share(worth - heldOutCents, given.length).forEach((max, i) => maxima.set(given[i]!, max));
	share(heldOutCents, heldOut.length).forEach((max, i) => maxima.set(heldOut[i]!, max));
	const tests = verdicts.map((verdict) => {
		const max = maxima.get(verdict) ?? 0;
		return { ...verdict, max: points(max), score: verdict.status === 'passed' ? points(max) : 0 };
	});
	const score = points(
		verdicts.reduce((sum, v) => sum + (v.status === 'passed' ? (maxima.get(v) ?? 0) : 0), 0)
	);
	const max = given.length + heldOut.length ? points(worth) : 0;
	const firstFailure = tests.find((test) => test.status !== 'passed' && test.max > 0) ?? null;
	return { exercise, tests, score, max, firstFailure };
}

export function total(exercises: ScoredExercise[]): { score: number; max: number } {
	return {
		score: points(exercises.reduce((sum, e) => sum + cents(e.score), 0)),
		max: points(exercises.reduce((sum, e) => sum + cents(e.max), 0))
	};
}
