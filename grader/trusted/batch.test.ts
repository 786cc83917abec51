// A batch (run-batch.ts) grades as runs alone do: the same class graded both ways, every run its own (no
// sharing), gives every learner the same verdicts, messages, points and diagnoses, byte for byte. The class: the
// named wrong solutions six at a time (submission k holds the k-th wrong solution of every exercise without a
// database, so its batch holds up to six mistakes), the honest samples, and the batch's hostile samples, whose
// one broken exercise ends the batch and is graded alone (grader/samples/samples.ts; the looping ones are pinned
// in samples.test.ts with a short limit). 06, which never joins a batch, is left out of both.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { wrongSolutions, writeWrongSolution } from '../../lib/wrong-solutions.ts';
import { materializeSamples, samples } from '../samples/samples.ts';
import { planExercises } from './expect.ts';
import { gradeClass, settingsOf, type ClassGrade, type Graded } from './grade.ts';

const small = exercises().filter((exercise) => exercise.postgres !== 'only');
const sampleNames = [
	'complete',
	'untouched',
	'partial',
	'batch-exit',
	'batch-throws',
	'batch-memory',
	'batch-channel',
	'batch-late-attempt',
	'batch-late-exit'
];
const dir = mkdtempSync(join('/var/tmp', 'grader-batch-'));
const settings = {
	seed: 11,
	heldOutChecks: 2,
	heldOutRuns: 15,
	timeoutMs: 60_000,
	share: false,
	classFolder: dir
};
let batched: ClassGrade;
let alone: ClassGrade;

// Submission k: the solutions, with the k-th wrong solution of each small exercise patched over its own.
function wrongSixAtOnce(): string[] {
	const byExercise = small.map((exercise) =>
		wrongSolutions().filter((wrong) => wrong.exercise === exercise.id)
	);
	const most = Math.max(...byExercise.map((list) => list.length));
	return Array.from({ length: most }, (_, k) => {
		const path = join(dir, `wrong-${k + 1}`);
		materializeSamples(path, [{ ...samples[0]!, name: 'base', at: '.' }]);
		for (const list of byExercise) if (list[k]) writeWrongSolution(list[k]!, join(path, 'exercises'));
		return path;
	});
}

beforeAll(async () => {
	const picked = samples.filter((sample) => sampleNames.includes(sample.name));
	const paths = [...materializeSamples(dir, picked), ...wrongSixAtOnce()];
	for (const path of paths)
		rmSync(join(path, 'exercises', '06-ticket-endpoint'), { recursive: true, force: true });
	const planned = await planExercises(small, settingsOf({ ...settings }));
	batched = await gradeClass(paths, { ...settings, planned });
	alone = await gradeClass(paths, { ...settings, planned, batch: false });
}, 1_200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What a learner gets, line by line: each check's verdict, points and message, then each diagnosis (by exercise:
// the order they were made in is the order runs ended, which no grading fixes), without the time it took.
const said = (graded: Graded) => [
	...graded.exercises.flatMap((scored) =>
		scored.tests.map((test) => `${scored.exercise.id} ${JSON.stringify(test)}`)
	),
	`total ${graded.score}/${graded.max}`,
	...Object.keys(graded.diagnoses)
		.sort()
		.map((id) => `diagnosis ${id} ${JSON.stringify(graded.diagnoses[id])}`)
];

describe('a batch grades as runs alone do', () => {
	it('ran batches one way and none the other', () => {
		expect(batched.batches).toBe(batched.graded.length);
		expect(alone.batches).toBe(0);
		// Run alone after the batch: all six where 04 ended it as it loaded (exit, memory, the channel) or 01's timer
		// did (at 07's load), 04 alone where it threw (a load error costs that exercise's re-run only); none else.
		expect(batched.rerun).toBe(5 * 6 + 1);
	});

	it('gives every learner the same verdicts, messages, points and diagnoses, byte for byte', () => {
		const names = batched.graded.map((graded) => graded.submission.name).sort();
		expect(alone.graded.map((graded) => graded.submission.name).sort()).toEqual(names);
		for (const name of names) {
			const [one, other] = [batched, alone].map((grade) =>
				said(grade.graded.find((g) => g.submission.name === name)!)
			);
			const at = one!.findIndex((line, i) => line !== other![i]);
			const where =
				at < 0 ? null : `${name}, line ${at + 1}:\nin a batch: ${one![at]}\nalone:      ${other![at]}`;
			expect(where, name).toBeNull();
			expect(one!.length, name).toBe(other!.length);
		}
	});

	it('lost points where the wrong solutions are, and diagnosed them', () => {
		const wrong = batched.graded.filter((graded) => graded.submission.name.startsWith('wrong-'));
		expect(wrong.length).toBeGreaterThan(1);
		for (const graded of wrong)
			expect(Object.keys(graded.diagnoses).length, graded.submission.name).toBeGreaterThan(0);
	});
});
