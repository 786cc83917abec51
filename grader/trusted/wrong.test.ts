// The grader's checks are where the points come from now, so they must be as hard to pass as the tests: every
// wrong solution in solutions/wrong/ (each a classic mistake the tests catch, as a patch) loses points on its
// exercise when graded, and keeps full marks everywhere else. And the grader recognises each by what it does:
// it is diagnosed with its own mistake and no other, while the mistakes held in reserve (grader/samples/reserve/,
// which the grader is not told about) are "not one of the named mistakes". The class page made from this class
// is checked in Chromium (class-page.browser.ts).
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { wrongSolutions, writeWrongSolution } from '../../lib/wrong-solutions.ts';
import { checkClassPage } from './class-page.browser.ts';
import { classPage } from './class-page.ts';
import { readResults, viewOfGrade, viewOfResults, type ClassView } from './class-view.ts';
import { gradescopeResults } from './gradescope.ts';
import { writeLearner } from './output.ts';
import { saidDiagnosis, type Diagnosis } from './diagnose.ts';
import { gradeClass, type ClassGrade } from './grade.ts';

const saidOrNothing = (d: Diagnosis | undefined) => (d ? saidDiagnosis(d) : 'no diagnosis');
import { root } from '../sandbox/paths.ts';

const wrongs = wrongSolutions();
const reserve = wrongSolutions(join(root, 'grader', 'samples', 'reserve'));
const dir = mkdtempSync(join(tmpdir(), 'grader-wrong-'));
let grade: ClassGrade;

beforeAll(async () => {
	const paths = [...wrongs, ...reserve].map((wrong) => {
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

const gradedAs = (name: string) => grade.graded.find((g) => g.submission.name === name)!;

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

describe('every wrong solution is diagnosed with its own mistake, and no other', () => {
	for (const wrong of wrongs) {
		it(wrong.name, () => {
			const { diagnoses } = gradedAs(wrong.name);
			expect(Object.keys(diagnoses), 'only its exercise is diagnosed').toEqual([wrong.exercise]);
			const diagnosis = diagnoses[wrong.exercise]!;
			expect(diagnosis.kind === 'mistake' && { name: diagnosis.name, alike: diagnosis.alike }).toEqual({
				name: wrong.name,
				alike: []
			});
		});
	}
});

describe('a mistake the grader was not told about loses points, and is none of the named ones', () => {
	for (const wrong of reserve) {
		it(`${wrong.name} (${wrong.exercise}): ${wrong.mistake}`, () => {
			const scored = gradedAs(wrong.name).exercises.find((e) => e.exercise.id === wrong.exercise)!;
			expect(scored.score, 'it loses points on its exercise').toBeLessThan(scored.max);
			const diagnosis = gradedAs(wrong.name).diagnoses[wrong.exercise];
			expect(diagnosis?.kind, saidOrNothing(diagnosis)).toBe('unnamed');
		});
	}
});

describe('the class page, in Chromium', () => {
	it('shows the counts the CSV has, opens a diagnosis from the keyboard, fetches nothing, and passes axe', async () => {
		const problems = await checkClassPage(grade);
		expect(problems).toEqual([]);
	}, 120_000);
});

describe('npm run grade:report', () => {
	it('rebuilds the same learners, points and diagnoses from the results.json files alone', () => {
		const out = mkdtempSync(join(tmpdir(), 'grade-report-'));
		try {
			for (const graded of grade.graded) writeLearner(out, graded.submission.name, gradescopeResults(graded));
			const fromFiles = viewOfResults(readResults(out));
			const fromGrade = viewOfGrade(grade);
			const brief = (view: ClassView) =>
				view.learners
					.map((row) => ({
						learner: row.learner,
						cells: row.cells.map((c) => ({
							id: c.id,
							score: c.score,
							max: c.max,
							said: c.diagnosis?.kind === 'mistake' ? c.diagnosis.name : (c.diagnosis?.kind ?? null)
						}))
					}))
					.sort((a, b) => a.learner.localeCompare(b.learner));
			expect(brief(fromFiles)).toEqual(brief(fromGrade));
			expect(classPage(fromFiles)).toContain('<h1>Class report</h1>');
		} finally {
			rmSync(out, { recursive: true, force: true });
		}
	});
});
