// A learner "fixed" exercise 01 by deleting what its tests check. The grader runs its own copy instead.
import { describe, it } from 'vitest';

describe('01 · The first handler', () => {
	it('passes', () => {});
});
