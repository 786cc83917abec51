// The one scoring function: every output (table, results.json, CSV) reads its numbers from here.
import type { Exercise } from '#shared/manifest.ts';

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
};

export type Rules = {
	// An exercise is worth weight × pointsPerWeight points.
	pointsPerWeight: number;
	// The share of an exercise's points its held-out tests carry, when it has any.
	heldOutShare: number;
};
export const defaultRules: Rules = { pointsPerWeight: 10, heldOutShare: 0.5 };

const round = (points: number) => Math.round(points * 10_000) / 10_000;

// Points per test: the exercise's points split between given and held-out tests, then equally within each,
// leaving out tests that pass as shipped. Partial credit is the points of the tests that passed.
export function scoreExercise(
	exercise: Exercise,
	verdicts: Verdict[],
	rules: Rules = defaultRules
): ScoredExercise {
	const points = exercise.weight * rules.pointsPerWeight;
	const counted = verdicts.filter((verdict) => !verdict.free);
	const given = counted.filter((verdict) => !verdict.heldOut).length;
	const heldOut = counted.length - given;
	const heldOutShare = given === 0 ? 1 : heldOut === 0 ? 0 : rules.heldOutShare;
	const worth = (verdict: Verdict) => {
		if (verdict.free) return 0;
		return verdict.heldOut ? (points * heldOutShare) / heldOut : (points * (1 - heldOutShare)) / given;
	};
	const earned = verdicts.reduce(
		(sum, verdict) => sum + (verdict.status === 'passed' ? worth(verdict) : 0),
		0
	);
	const tests = verdicts.map((verdict) => {
		const max = round(worth(verdict));
		return { ...verdict, max, score: verdict.status === 'passed' ? max : 0 };
	});
	const score = round(earned);
	const max = counted.length ? round(points) : 0;
	const firstFailure = tests.find((test) => test.status !== 'passed' && test.max > 0) ?? null;
	return { exercise, tests, score, max, firstFailure };
}

export function total(exercises: ScoredExercise[]): { score: number; max: number } {
	return {
		score: round(exercises.reduce((sum, e) => sum + e.score, 0)),
		max: round(exercises.reduce((sum, e) => sum + e.max, 0))
	};
}
