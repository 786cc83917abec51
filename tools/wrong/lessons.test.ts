// What the grader tells a learner whose answers match a named mistake comes from its patch's header: every
// wrong solution says what the lesson says of it, and names a hint that its exercise's hints.md has.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { wrongSolutions } from '../../lib/wrong-solutions.ts';

describe('every wrong solution says the lesson and the hint the grader hands on', () => {
	for (const wrong of wrongSolutions()) {
		it(wrong.name, () => {
			const hints = readFileSync(join(workbookRoot, 'exercises', wrong.folder, 'hints.md'), 'utf8')
				.split('\n')
				.filter((line) => line.startsWith('## '));
			expect(wrong.lesson, 'a "lesson:" line').toMatch(/\S/);
			expect(wrong.hint, `a "hint:" line, 1 to ${hints.length}`).toBeGreaterThanOrEqual(1);
			expect(wrong.hint).toBeLessThanOrEqual(hints.length);
		});
	}
});
