// What the grader tells a learner whose answers match a named mistake comes from its patch's header: every
// wrong solution says what the lesson says of it, and names a hint that its exercise's hints.md has.
import { describe, expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { readHints } from '../../lib/hints.ts';
import { wrongSolutions } from '../../lib/wrong-solutions.ts';

describe('every wrong solution says the lesson and the hint the grader hands on', () => {
	for (const wrong of wrongSolutions()) {
		it(wrong.name, () => {
			const hints = readHints(
				workbookRoot,
				exercises().find((e) => e.folder === wrong.folder)!
			);
			expect(wrong.lesson, 'a "lesson:" line').toMatch(/\S/);
			expect(wrong.hint, `a "hint:" line, 1 to ${hints.length}`).toBeGreaterThanOrEqual(1);
			expect(wrong.hint).toBeLessThanOrEqual(hints.length);
		});
	}
});
