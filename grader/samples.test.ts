// Grades every sample submission once and pins each one's score and reasons, exercise by exercise,
// so the pins stay right as exercises land: solved exercises must score full, untouched ones zero.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classCsv } from './csv.ts';
import { gradeClass, type ClassGrade, type Graded } from './grade.ts';
import { gradescopeResults } from './gradescope.ts';
import { root } from './paths.ts';
import { materializeSamples, samples } from './samples.ts';
import type { ScoredExercise } from './score.ts';
import { hashFiles } from './submission.ts';
import { classReport } from './table.ts';

const Ajv = AjvModule.default ?? AjvModule;
const dir = mkdtempSync(join(tmpdir(), 'grader-samples-'));
const seed = 20261129;
const limit = 5;
let grade: ClassGrade;

beforeAll(async () => {
	// Every sample but the looping one gets a generous limit, so a busy machine is never mistaken for a loop;
	// the looping one is graded next with a short limit, sharing the runs already made.
	const paths = materializeSamples(dir);
	const loops = paths.findIndex((path) => path.endsWith('infinite-loop'));
	const cache = new Map();
	const settings = { seed, heldOutChecks: 2, heldOutRuns: 15, cache };
	const rest = await gradeClass(
		paths.filter((_, i) => i !== loops),
		{ ...settings, timeoutMs: 120_000 }
	);
	const looping = await gradeClass([paths[loops]!], { ...settings, timeoutMs: limit * 1000 });
	grade = {
		...rest,
		graded: [...rest.graded.slice(0, loops), ...looping.graded, ...rest.graded.slice(loops)]
	};
	grade.trees.push(...looping.trees);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sample = (name: string): Graded => grade.graded.find((graded) => graded.submission.name === name)!;
const exercise = (graded: Graded, id: string): ScoredExercise =>
	graded.exercises.find((e) => e.exercise.id === id)!;
const counted = (scored: ScoredExercise) => scored.tests.filter((test) => !test.free);

function full(scored: ScoredExercise) {
	expect(scored.max, `${scored.exercise.id} is worth points`).toBeGreaterThan(0);
	const failed = scored.tests
		.filter((test) => test.status !== 'passed')
		.map((test) => `${test.name}: ${test.message}`);
	expect(failed, `${scored.exercise.id}: every test passes`).toEqual([]);
	expect(scored.score).toBe(scored.max);
}
function zero(scored: ScoredExercise) {
	expect(scored.score, `${scored.exercise.id} scores nothing`).toBe(0);
	expect(counted(scored).filter((test) => test.status === 'passed')).toEqual([]);
}
function notExecuted(scored: ScoredExercise, reason: RegExp) {
	zero(scored);
	for (const test of scored.tests) {
		expect(test.status, test.name).toBe('not executed');
		expect(test.message, test.name).toMatch(reason);
	}
}
// Each exercise not named gets `rest`.
function each(
	graded: Graded,
	pinned: Record<string, (scored: ScoredExercise) => void>,
	rest: (s: ScoredExercise) => void
) {
	for (const scored of graded.exercises) (pinned[scored.exercise.id] ?? rest)(scored);
}

describe('grading the sample submissions', () => {
	it('grades every sample, in order, against the same list of tests (the reference run), none missing', () => {
		expect(grade.graded.map((graded) => graded.submission.name)).toEqual(samples.map((s) => s.name));
		const names = (graded: Graded) =>
			graded.exercises.map((e) => e.tests.map((test) => `${test.file} › ${test.name}`));
		for (const graded of grade.graded) expect(names(graded)).toEqual(names(sample('complete')));
		// An exercise has held-out tests exactly when grader/held-out/ has a file for it.
		for (const scored of sample('complete').exercises) {
			const file = join(root, 'grader', 'held-out', `${scored.exercise.folder}.held.ts`);
			expect(
				scored.tests.some((test) => test.heldOut),
				file
			).toBe(existsSync(file));
		}
	});

	it('complete: every exercise full marks', () => {
		each(sample('complete'), {}, full);
		expect(sample('complete').score).toBe(sample('complete').max);
	});

	it('untouched: nothing, and every test ran and failed (the stubs are not "not executed")', () => {
		each(sample('untouched'), {}, (scored) => {
			zero(scored);
			expect(counted(scored).every((test) => test.status === 'failed')).toBe(true);
		});
		expect(sample('untouched').score).toBe(0);
	});

	it('partial: exercise 01 full, the others nothing', () => {
		each(sample('partial'), { '01': full }, zero);
		expect(sample('partial').score).toBe(exercise(sample('partial'), '01').max);
	});

	it('infinite-loop: exercise 02 stopped at the time limit, not executed; every other exercise full', () => {
		each(
			sample('infinite-loop'),
			{ '02': (s) => notExecuted(s, new RegExp(`not executed: timed out: .* after ${limit} s`)) },
			full
		);
	});

	it('exit-at-import: exercise 01 did not load (process.exit); every other exercise full', () => {
		const exited = /not executed: .* did not load: process\.exit unexpectedly called with "0"/;
		each(sample('exit-at-import'), { '01': (s) => notExecuted(s, exited) }, full);
	});

	it('edited-tests: its own tests, package.json and config are ignored and reported; it scores nothing', () => {
		const graded = sample('edited-tests');
		each(graded, {}, zero);
		expect(graded.submission.ignored).toEqual(
			expect.arrayContaining([
				'exercises/01-first-handler/handler.test.ts (edited)',
				'package.json (edited)',
				'vitest.config.ts (edited)'
			])
		);
	});

	it('hard-coded: passes every shipped schedule and fails every held-out schedule, so it loses their points', () => {
		const graded = sample('hard-coded');
		const schedules = (scored: ScoredExercise, heldOut: boolean) =>
			scored.tests.filter((test) => test.heldOut === heldOut && / schedules/.test(test.name));
		each(
			graded,
			Object.fromEntries(
				['01', '02'].map((id) => [
					id,
					(scored: ScoredExercise) => {
						expect(schedules(scored, false).length).toBeGreaterThan(0);
						expect(schedules(scored, false).every((test) => test.status === 'passed')).toBe(true);
						expect(schedules(scored, true).length).toBeGreaterThan(0);
						expect(schedules(scored, true).every((test) => test.status === 'failed')).toBe(true);
						expect(scored.score).toBeLessThan(scored.max);
					}
				])
			),
			zero
		);
		// Exercise 01: it keeps the points of every shipped schedule and loses every held-out point.
		const one = exercise(graded, '01');
		const kept = (heldOut: boolean) =>
			one.tests.filter((test) => test.heldOut === heldOut).reduce((sum, test) => sum + test.score, 0);
		const shipped = schedules(one, false).reduce((sum, test) => sum + test.max, 0);
		expect(kept(true)).toBe(0);
		expect(kept(false)).toBeGreaterThanOrEqual(shipped);
		expect(one.score).toBeLessThan(one.max / 2 + 1e-9);
		expect(schedules(exercise(graded, '01'), true)[0]!.message).toMatch(
			/random case the tests do not ship \(held-out, seed \d+\)/
		);
	});

	it('empty: not a workbook; every test listed as not executed, with the reason', () => {
		const graded = sample('empty');
		expect(graded.submission.notAWorkbook).toBe('the folder is empty');
		each(graded, {}, (s) => notExecuted(s, /not executed: the folder is empty/));
	});

	it('stamps every report with the workbook, the schedules, the files graded and the seed', () => {
		for (const graded of grade.graded) {
			expect(graded.stamps.seed).toBe(seed);
			expect(graded.stamps.schedules).toMatch(/^[0-9a-f]{16}$/);
			expect(graded.stamps.workbook).toMatch(/^\d+\.\d+\.\d+/);
			expect(graded.stamps.submission).toBe(hashFiles(graded.submission.files));
		}
		expect(sample('complete').stamps.submission).not.toBe(sample('untouched').stamps.submission);
	});

	it('writes a results.json per submission that validates against the Gradescope schema', () => {
		const schema = JSON.parse(readFileSync(new URL('./gradescope.schema.json', import.meta.url), 'utf8'));
		const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
		for (const graded of grade.graded) {
			const results = gradescopeResults(graded);
			expect(validate(results), `${graded.submission.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
			const sum = results.tests.reduce((total, test) => total + test.score, 0);
			expect(sum).toBeCloseTo(results.score, 3);
			const max = results.tests.reduce((total, test) => total + test.max_score, 0);
			expect(max).toBeCloseTo(graded.max, 3);
		}
		const notRun = gradescopeResults(sample('infinite-loop')).tests.filter((t) =>
			t.tags.includes('not executed')
		);
		expect(notRun.length).toBe(exercise(sample('infinite-loop'), '02').tests.length);
		expect(notRun.every((test) => test.status === 'failed' && test.output.startsWith('not executed'))).toBe(
			true
		);
	});

	it('writes a class CSV and a table with a row per learner and the first failure of each red cell', () => {
		const csv = classCsv(grade).trim().split('\n');
		expect(csv).toHaveLength(samples.length + 1);
		expect(csv.slice(1).map((row) => row.split(',')[0])).toEqual(samples.map((s) => s.name));
		const report = classReport(grade, 'Go reference: not run (in this test)');
		for (const s of samples) expect(report).toContain(s.name);
		expect(report).toMatch(/infinite-loop:\n {2}02: not executed: timed out/);
		expect(report).toContain(`seed ${seed}`);
	});

	it('leaves no process running and no tree behind', () => {
		expect(grade.trees.length).toBeGreaterThan(0);
		for (const tree of grade.trees) expect(existsSync(tree), tree).toBe(false);
		if (!existsSync('/proc')) return;
		const leftovers = readdirSync('/proc')
			.filter((pid) => /^\d+$/.test(pid))
			.filter((pid) => {
				try {
					const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
					return grade.trees.some((tree) => env.includes(`GRADE_TREE=${tree}`));
				} catch {
					return false;
				}
			});
		expect(leftovers).toEqual([]);
	});
});
