// The held-out checks' settings, handed down by the grader through the environment so a grade can be replayed.
import fc from 'fast-check';
import { it } from 'vitest';
import { ScheduleMismatch } from '#shared/play-handler.ts';

export const heldOut = {
	seed: Number(process.env.GRADE_SEED ?? 1),
	// How many held-out tests each exercise gets, and how many random cases each one tries.
	checks: Number(process.env.GRADE_HELD_OUT_CHECKS ?? 4),
	runs: Number(process.env.GRADE_HELD_OUT_RUNS ?? 25)
};

// One test per check; each tries `runs` random cases from its own seed, so the names never depend on the seed.
// `differs` returns null when the learner's code did what the reference did (or what must hold), else the
// learner's message; it may be async, for code that talks to the in-memory database.
type Differs<T> = (value: T) => string | null | Promise<string | null>;
export function heldOutChecks<T>(what: string, cases: fc.Arbitrary<T>, differs: Differs<T>): void {
	for (let check = 0; check < heldOut.checks; check++) {
		it(`held-out ${what}, check ${check + 1} of ${heldOut.checks}`, async () => {
			const seed = heldOut.seed + check;
			const details = await fc.check(
				fc.asyncProperty(cases, async (value) => (await attempt(differs, value)) === null),
				{ seed, numRuns: heldOut.runs }
			);
			if (!details.failed) return;
			// Play the shrunk counterexample once more to tell the learner what went another way.
			const why = details.counterexample ? await attempt(differs, details.counterexample[0]) : null;
			if (why === null)
				throw new Error(`held-out ${what} (seed ${seed}) failed: ${String(details.errorInstance)}`);
			throw new ScheduleMismatch(`A random case the tests do not ship (held-out, seed ${seed}):\n${why}`);
		});
	}
}

// The learner's message for one case, or null when it matched; a throw is a difference too.
async function attempt<T>(differs: Differs<T>, value: T): Promise<string | null> {
	try {
		return await differs(value);
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}
