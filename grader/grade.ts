// Grades a class: one fresh tree per submission, one process per exercise, scored against the reference run.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { exercises as manifestExercises, type Exercise } from '#shared/manifest.ts';
import { root } from './paths.ts';
import { runExercise, testKey, type ExerciseRun, type RunSettings } from './run-exercise.ts';
import {
	defaultRules,
	scoreExercise,
	total,
	type Rules,
	type ScoredExercise,
	type Verdict
} from './score.ts';
import { schedulesHash, workbookVersion, type Stamps } from './stamps.ts';
import { learnerPaths, readSubmission, type Submission } from './submission.ts';
import { exerciseKey, makeTree, removeTree, treeFiles, type Tree } from './tree.ts';

export type Options = RunSettings &
	Rules & {
		jobs: number;
		// Share one run between submissions whose files for an exercise are the same.
		share: boolean;
		// Runs to share across calls (same seed and held-out settings give the same result); one per call if absent.
		cache?: Map<string, Promise<ExerciseRun>>;
		onProgress?: (done: number, total: number, label: string) => void;
	};

export const defaults: Options = {
	...defaultRules,
	seed: 1,
	timeoutMs: 20_000,
	heldOutChecks: 4,
	heldOutRuns: 25,
	maxOutput: 64 * 1024,
	jobs: availableParallelism(),
	share: true
};

export type Graded = {
	submission: Submission;
	exercises: ScoredExercise[];
	score: number;
	max: number;
	stamps: Stamps;
	seconds: number;
};
export type ClassGrade = {
	graded: Graded[];
	exercises: Exercise[];
	seconds: number;
	runs: number;
	// The fresh trees it made (removed when it is done), so a test can tell that nothing still runs in them.
	trees: string[];
};

// The tests every submission is held to, per exercise: all the reference solutions ran (and passed).
type Expected = { file: string; name: string; free: boolean }[];

// At most `jobs` tasks at once.
function pool(jobs: number) {
	let active = 0;
	const waiting: (() => void)[] = [];
	return async <T>(task: () => Promise<T>): Promise<T> => {
		if (active >= jobs) await new Promise<void>((resolve) => waiting.push(resolve));
		active++;
		try {
			return await task();
		} finally {
			active--;
			waiting.shift()?.();
		}
	};
}

const solutionFiles = (exercises: Exercise[]) =>
	new Map(learnerPaths(exercises).map((path) => [path, readFileSync(join(root, 'solutions', path), 'utf8')]));

export async function gradeClass(paths: string[], given: Partial<Options> = {}): Promise<ClassGrade> {
	const options = { ...defaults, ...given };
	const started = Date.now();
	const exercises = manifestExercises();
	const submissions = uniqueNames(paths).map(([path, name]) => readSubmission(path, exercises, name));
	const limit = pool(Math.max(1, options.jobs));
	const runs = options.cache ?? new Map<string, Promise<ExerciseRun>>();
	const settings = `seed ${options.seed}, ${options.heldOutChecks}×${options.heldOutRuns}`;
	const trees: Tree[] = [];
	let done = 0;
	let planned = 0;

	const runOn = (tree: Tree, exercise: Exercise, label: string): Promise<ExerciseRun> => {
		const key = options.share
			? `${exerciseKey(exercise, tree.files)} ${settings}`
			: `${tree.dir}:${exercise.folder}`;
		let pending = runs.get(key);
		if (!pending) {
			planned++;
			pending = limit(() => runExercise(tree.dir, exercise, options)).then((ran) => {
				options.onProgress?.(++done, planned, `${label} ${exercise.id}`);
				return ran;
			});
			runs.set(key, pending);
		}
		return pending;
	};
	const tree = (label: string, files: Map<string, string>) => {
		const made = makeTree(label, treeFiles(exercises, files));
		trees.push(made);
		return made;
	};

	try {
		const referenceTree = tree('reference', solutionFiles(exercises));
		const stubTree = tree('stubs', new Map());
		const reference = exercises.map((exercise) => runOn(referenceTree, exercise, 'reference'));
		const stubs = exercises.map((exercise) => runOn(stubTree, exercise, 'stubs'));
		const learnerRuns = submissions.map((submission) => {
			if (submission.notAWorkbook) return exercises.map(() => null);
			const learnerTree = tree(submission.name, submission.files);
			return exercises.map((exercise) =>
				submitted(submission, exercise) ? runOn(learnerTree, exercise, submission.name) : null
			);
		});
		const expected = await Promise.all(
			exercises.map(async (exercise, i) => expectedTests(exercise, await reference[i]!, await stubs[i]!))
		);
		const stampsBase = { workbook: workbookVersion(), schedules: schedulesHash(), seed: options.seed };
		const graded: Graded[] = [];
		for (const [s, submission] of submissions.entries()) {
			const scored: ScoredExercise[] = [];
			let seconds = 0;
			for (const [i, exercise] of exercises.entries()) {
				const ran = (await learnerRuns[s]![i]) ?? null;
				seconds += ran?.seconds ?? 0;
				const reason = ran ? null : whyNotRun(submission, exercise);
				scored.push(scoreExercise(exercise, verdicts(expected[i]!, ran, reason), options));
			}
			graded.push({
				submission,
				exercises: scored,
				...total(scored),
				stamps: { ...stampsBase, submission: submission.hash },
				seconds
			});
		}
		return {
			graded,
			exercises,
			seconds: (Date.now() - started) / 1000,
			runs: planned,
			trees: trees.map((made) => made.dir)
		};
	} finally {
		await Promise.allSettled(runs.values());
		for (const made of trees) removeTree(made);
	}
}

function submitted(submission: Submission, exercise: Exercise): boolean {
	return exercise.learnerFiles.some((file) => submission.files.has(`${exercise.folder}/${file}`));
}

function whyNotRun(submission: Submission, exercise: Exercise): string {
	if (submission.notAWorkbook) return submission.notAWorkbook;
	const files = exercise.learnerFiles.map((file) => `exercises/${exercise.folder}/${file}`).join(', ');
	return `not submitted: ${files} is not in the submission (or was not taken)`;
}

// The reference must pass everything it ran, or the grade would be wrong; tests the stubs pass are free.
function expectedTests(exercise: Exercise, reference: ExerciseRun, stubs: ExerciseRun): Expected {
	const failing = [...reference.tests].filter(([, ran]) => ran.status !== 'passed');
	if (reference.tests.size === 0 || failing.length) {
		const why =
			failing.map(([key, ran]) => `${key}\n${ran.message}`).join('\n') ||
			reference.notExecuted('') + '\n' + reference.output;
		throw new Error(
			`The reference solutions of ${exercise.folder} do not pass their own tests; grading stopped.\n${why}`
		);
	}
	const tests = [...reference.tests.keys()].map((key) => {
		const [file, ...name] = key.split(' › ');
		return { file: file!, name: name.join(' › '), free: stubs.tests.get(key)?.status === 'passed' };
	});
	// The given tests first, in the order they ran, then the held-out ones: a red cell shows a given failure first.
	const heldOut = (test: { file: string }) => Number(test.file.startsWith('grader/'));
	return tests.sort((a, b) => heldOut(a) - heldOut(b));
}

// The denominator is the reference's list: a test the learner's run never reached is "not executed".
function verdicts(expected: Expected, ran: ExerciseRun | null, reason: string | null): Verdict[] {
	return expected.map(({ file, name, free }) => {
		const heldOut = file.startsWith('grader/');
		const result = ran?.tests.get(testKey(file, name));
		if (!ran || !result || result.status === 'skipped') {
			const why = !ran ? reason! : result ? 'it was skipped' : ran.notExecuted(file);
			return { file, name, heldOut, free, status: 'not executed', message: `not executed: ${why}` };
		}
		return { file, name, heldOut, free, status: result.status, message: result.message };
	});
}

// Two submissions with the same folder name get "-2", "-3"… so their reports don't overwrite each other.
function uniqueNames(paths: string[]): [string, string][] {
	const seen = new Map<string, number>();
	return paths.map((path) => {
		const trimmed = path.replace(/[\\/]+$/, '');
		const parts = trimmed.split(/[\\/]/);
		let name =
			parts.at(-1) === 'exercises' && parts.length > 1 ? parts.at(-2)! : parts.at(-1) || 'submission';
		const count = (seen.get(name) ?? 0) + 1;
		seen.set(name, count);
		if (count > 1) name = `${name}-${count}`;
		return [path, name];
	});
}
