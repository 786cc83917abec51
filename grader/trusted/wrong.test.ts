// The grader's checks are where the points come from now, so they must be as hard to pass as the tests: every
// wrong solution in solutions/wrong/ (each a classic mistake the tests catch, as a patch) loses points on its
// exercise when graded, and keeps full marks everywhere else.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { wrongSolutions, writeWrongSolution } from '../../lib/wrong-solutions.ts';
import { gradeClass, type ClassGrade } from './grade.ts';
import { root } from '../sandbox/paths.ts';

const wrongs = wrongSolutions();
const dir = mkdtempSync(join(tmpdir(), 'grader-wrong-'));
let grade: ClassGrade;

beforeAll(async () => {
	const paths = wrongs.map((wrong) => {
		const path = join(dir, wrong.name);
		mkdirSync(join(path, 'exercises'), { recursive: true });
		for (const exercise of exercises())
			cpSync(join(root, 'solutions', exercise.folder), join(path, 'exercises', exercise.folder), {
				recursive: true
			});
		// Each submission is the solutions with one wrong solution's patched files over them.
		writeWrongSolution(wrong, join(path, 'exercises'));
		return path;
	});
	grade = await gradeClass(paths, {
		seed: 7,
		heldOutChecks: 2,
		heldOutRuns: 25,
		timeoutMs: 120_000,
		classFolder: dir
	});
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every wrong solution loses points on its exercise, and only there', () => {
	for (const wrong of wrongs) {
		it(`${wrong.name} (${wrong.exercise}): ${wrong.mistake}`, () => {
			const graded = grade.graded.find((g) => g.submission.name === wrong.name)!;
			for (const scored of graded.exercises) {
				const failed = scored.tests
					.filter((t) => t.status !== 'passed')
					.map((t) => `${t.name}: ${t.message}`);
				if (scored.exercise.id === wrong.exercise)
					expect(scored.score, 'it loses points').toBeLessThan(scored.max);
				else expect(failed, `${scored.exercise.id} stays full`).toEqual([]);
			}
		});
	}
});
