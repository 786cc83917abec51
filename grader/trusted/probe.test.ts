// The checks are data made from the seed: the same seed makes the same inputs (a grade can be replayed), another
// seed makes other held-out inputs, and the given checks never depend on it.
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { casesOf, loadProbe, type Check } from './probe.ts';

const settings = (seed: number) => ({ seed, checks: 2, runs: 10 });
const inputs = (checks: Check[], heldOut: boolean) =>
	JSON.stringify(
		checks.filter((check) => check.heldOut === heldOut).map((check) => [check.name, casesOf(check)])
	);

describe('the checks of every exercise, from the seed', () => {
	for (const exercise of exercises()) {
		it(`${exercise.folder}: the same seed, the same inputs; another seed, other held-out inputs`, async () => {
			const probe = (await loadProbe(exercise))?.probe;
			expect(probe, `grader/checks/${exercise.folder}.held.ts`).toBeTypeOf('function');
			const [a, b, c] = [probe!(settings(11)), probe!(settings(11)), probe!(settings(12))];
			expect(inputs(a, true)).toBe(inputs(b, true));
			expect(inputs(a, true)).not.toBe(inputs(c, true));
			expect(inputs(a, false)).toBe(inputs(c, false));
			expect(new Set(a.map((check) => check.name)).size, 'check names are unique').toBe(a.length);
		});
	}
});
