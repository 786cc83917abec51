// Grades a class: expectations from the reference first, then one sandboxed run per exercise per submission,
// judged outside the sandbox; each learner's grade is handed on (onGraded) as soon as that learner is done.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { exercises as manifestExercises, type Exercise } from '#harness/core/manifest.ts';
import { removeCompiledHarness } from '../sandbox/compile.ts';
import { diagnose, type Diagnosis } from './diagnose.ts';
import { planExercises, plannedMistakes, type Frozen, type Planned } from './expect.ts';
import { inGo } from './mistakes.ts';
import { commonFolder, learnerNames } from './names.ts';
import { root } from '../sandbox/paths.ts';
import { maxObservations, notRun, runExercise, type ExerciseRun } from './run-exercise.ts';
import { GradingPostgres } from '../sandbox/postgres.ts';
import { findSandbox, type Sandbox } from '../sandbox/sandbox.ts';
import { sweepLeftovers } from '../sandbox/sweep.ts';
import {
	defaultRules,
	scoreExercise,
	total,
	type Rules,
	type ScoredExercise,
	type Verdict
} from './score.ts';
import { schedulesHash, workbookVersion, type Stamps } from './stamps.ts';
import { exerciseFiles, exerciseKey, readSubmission, type Submission } from './submission.ts';
import { better, goExerciseFiles, languagesOf } from './language.ts';
import { runGoExercise } from './run-go.ts';
import { runBatch } from './run-batch.ts';

export type Options = Rules & {
	seed: number;
	timeoutMs: number;
	heldOutChecks: number;
	heldOutRuns: number;
	maxOutput: number;
	// Memory for a run's whole process tree, in MB.
	memoryMb: number;
	jobs: number;
	// Share one run between submissions whose files for an exercise are the same.
	share: boolean;
	// A submission's exercises without a database in one sandboxed run (run-batch.ts), when runs are traced;
	// false: every exercise a run of its own.
	batch?: boolean;
	// Run learner code without bubblewrap (said on every row of the report).
	unsafe: boolean;
	// Run it in bubblewrap without strace: attempts that fail quietly are not seen (said in every report).
	untraced?: boolean;
	// Expectations frozen earlier (a Gradescope package): no solutions/ needed.
	frozen?: Frozen;
	// Runs and plans to share across calls (same seed and held-out settings give the same result).
	cache?: Map<string, Promise<ExerciseRun>>;
	planned?: Planned[];
	classFolder?: string;
	onProgress?: (done: number, total: number, label: string) => void;
	onGraded?: (graded: Graded) => void;
};

export const defaults: Options = {
	...defaultRules,
	seed: 1,
	timeoutMs: 20_000,
	heldOutChecks: 4,
	heldOutRuns: 25,
	maxOutput: 64 * 1024,
	memoryMb: 1024,
	jobs: availableParallelism(),
	share: true,
	unsafe: false
};

export type Graded = {
	submission: Submission;
	exercises: ScoredExercise[];
	score: number;
	max: number;
	stamps: Stamps;
	seconds: number;
	// Graded without a sandbox (--unsafe-no-sandbox).
	unsafe: boolean;
	// Graded in the sandbox without its tracer (--untraced).
	untraced: boolean;
	// For each exercise that lost points, by id: the mistake its answers match, or why none (diagnose.ts).
	diagnoses: Record<string, Diagnosis>;
};
export type ClassGrade = {
	graded: Graded[];
	exercises: Exercise[];
	// Submissions not graded at all, and why (a name that is not safe or not unique).
	refused: { path: string; reason: string }[];
	// Exercises in the manifest without checks (grader/checks/<folder>.held.ts): worth nothing here.
	unchecked: string[];
	sandbox: Sandbox;
	// How the runs' PostgreSQL clusters were made from the grading's base (empty: no run needed one).
	clusters?: ('overlay' | 'copy')[];
	seconds: number;
	runs: number;
	// Of them, how many sandboxed runs were batches (run-batch.ts), each several exercises, and how many exercises
	// of a batch were then run alone (what the batch could not vouch for).
	batches?: number;
	rerun?: number;
};

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

export const settingsOf = (options: Pick<Options, 'seed' | 'heldOutChecks' | 'heldOutRuns'>) => ({
	seed: options.seed,
	checks: options.heldOutChecks,
	runs: options.heldOutRuns
});

const notExecuted = (planned: Planned, why: string): Verdict[] => notRun(planned.checks ?? [], why);

function submitted(submission: Submission, exercise: Exercise): boolean {
	return exercise.learnerFiles.some((file) => submission.files.has(`${exercise.folder}/${file}`));
}

// Whether gradeOne will run the exercise's TypeScript: graded in it (with Go too, or alone) and submitted.
function needsTypeScriptRun(submission: Submission, plan: Planned): boolean {
	if (!plan.checks || submission.notAWorkbook) return false;
	const languages = languagesOf(submission, plan.exercise);
	return languages.includes('Go') ? languages.includes('TypeScript') : submitted(submission, plan.exercise);
}

// A path as code could write it into a message: itself, URI-escaped, in hex, and the part of its base64 that
// does not depend on the bytes around it, at each alignment (a path inside a longer encoded text).
export function encodedForms(path: string): string[] {
	const forms = [path, encodeURIComponent(path), Buffer.from(path).toString('hex')];
	for (let shift = 0; shift < 3; shift++) {
		const encoded = Buffer.from(`${'\0'.repeat(shift)}${path}`).toString('base64');
		const core = encoded.slice(shift === 0 ? 0 : 4, encoded.length - 4);
		if (core.length >= 8) forms.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
	}
	return [...new Set(forms)];
}

export async function gradeClass(paths: string[], given: Partial<Options> = {}): Promise<ClassGrade> {
	// What graders killed outright left (their views, builds, clusters, and what still works in them) goes first.
	await sweepLeftovers();
	// One PostgreSQL for the whole grading, started only if an exercise needs it, stopped at the end, always.
	const databases = new GradingPostgres();
	try {
		const grade = await gradeWith(paths, { ...defaults, ...given }, databases);
		return { ...grade, clusters: [...databases.ways] };
	} finally {
		await databases.stop();
		await removeCompiledHarness();
	}
}

async function gradeWith(paths: string[], options: Options, databases: GradingPostgres): Promise<ClassGrade> {
	const started = Date.now();
	const exercises = manifestExercises();
	const sandbox = findSandbox({ unsafe: options.unsafe, untraced: options.untraced });
	const plans =
		options.planned ?? (await planExercises(exercises, settingsOf(options), options.frozen, databases));
	const limits = {
		timeoutMs: options.timeoutMs,
		memoryMb: options.memoryMb,
		maxOutput: options.maxOutput,
		maxObservations
	};
	const named = learnerNames(paths, options.classFolder);
	// The grader's own paths never reach a learner's report, even when the learner's code wrote them itself.
	const hidden = [
		root.replace(/\/$/, ''),
		options.classFolder ?? commonFolder(paths.map((path) => resolve(path)))
	]
		.filter((path) => path.length > 1)
		.sort((a, b) => b.length - a.length);
	// Encoded too: as base64 (at each of its three alignments, and URL-safe), hex and URI escapes.
	const forms = hidden.flatMap(encodedForms).sort((a, b) => b.length - a.length);
	const scrub = (verdict: Verdict): Verdict => ({
		...verdict,
		message: forms.reduce((text, form) => text.split(form).join('<grader>'), verdict.message)
	});
	const scrubDiagnosis = (diagnosis: Diagnosis): Diagnosis =>
		diagnosis.kind === 'unnamed'
			? {
					...diagnosis,
					first: {
						...diagnosis.first,
						problem: scrub({ message: diagnosis.first.problem } as Verdict).message
					}
				}
			: diagnosis;
	const refused = named.flatMap((entry) =>
		'refused' in entry ? [{ path: entry.path, reason: entry.refused }] : []
	);
	const runs = options.cache ?? new Map<string, Promise<ExerciseRun>>();
	const limit = pool(Math.max(1, options.jobs));
	const settingsKey = `seed ${options.seed}, ${options.heldOutChecks}×${options.heldOutRuns}, ${options.timeoutMs} ms`;
	const stampsBase = { workbook: workbookVersion(), schedules: schedulesHash(), seed: options.seed };
	let done = 0;
	let planned = 0;
	let unique = 0;
	let batches = 0;
	let rerun = 0;

	const runOn = (
		submission: Submission,
		plan: Planned,
		batched?: Map<Planned, Promise<ExerciseRun>>
	): Promise<ExerciseRun> => {
		const inBatch = batched?.get(plan);
		if (inBatch) return inBatch;
		const files = exerciseFiles(plan.exercise, submission.files);
		const key = options.share ? `${exerciseKey(plan.exercise, files)} ${settingsKey}` : `${++unique}`;
		let pending = runs.get(key);
		if (!pending) {
			planned++;
			const run = () =>
				runExercise(sandbox, plan.exercise, files, plan.checks!, limits, plan.postgres ? databases : null);
			pending = limit(run).then((ran) => {
				options.onProgress?.(++done, planned, `${submission.name} ${plan.exercise.id}`);
				return ran;
			});
			runs.set(key, pending);
		}
		return pending;
	};

	// A traced grading runs a submission's exercises without a database together (run-batch.ts): the ones not
	// already run or on their way (shared), when two or more are left. What the batch cannot vouch for is run
	// alone, each in a run of its own through the same pool, and only that run decides it.
	const batching = options.batch !== false && sandbox.bwrap !== null && sandbox.strace !== null;
	const batchOn = (submission: Submission): Map<Planned, Promise<ExerciseRun>> => {
		const mine = new Map<Planned, Promise<ExerciseRun>>();
		if (!batching) return mine;
		const wanted = plans.flatMap((plan) => {
			if (plan.postgres || !needsTypeScriptRun(submission, plan)) return [];
			const files = exerciseFiles(plan.exercise, submission.files);
			const key = options.share ? `${exerciseKey(plan.exercise, files)} ${settingsKey}` : null;
			return key !== null && runs.has(key) ? [] : [{ plan, files, key }];
		});
		if (wanted.length < 2) return mine;
		batches++;
		const batch = limit(() =>
			runBatch(
				sandbox,
				wanted.map(({ plan, files }) => ({ exercise: plan.exercise, files, checks: plan.checks! })),
				limits
			)
		).catch((error: unknown) => {
			// The grader's own failure, not the learner's: every exercise of the batch is run alone instead.
			console.error(`${submission.name}: the batch failed (${String(error)}); each exercise is run alone`);
			return new Map<string, ExerciseRun | null>();
		});
		for (const { plan, files, key } of wanted) {
			planned++;
			const alone = () => runExercise(sandbox, plan.exercise, files, plan.checks!, limits, null);
			const pending = batch
				.then((ran) => {
					const kept = ran.get(plan.exercise.folder);
					if (kept) return kept;
					rerun++;
					return limit(alone);
				})
				.then((ran) => {
					options.onProgress?.(++done, planned, `${submission.name} ${plan.exercise.id}`);
					return ran;
				});
			if (key !== null) runs.set(key, pending);
			mine.set(plan, pending);
		}
		return mine;
	};

	// One diagnosis per run, shared like the run by the submissions whose files are the same.
	const diagnosed = new WeakMap<ExerciseRun, Promise<Diagnosis | null>>();
	const diagnosisOf = (plan: Planned, ran: ExerciseRun): Promise<Diagnosis | null> => {
		const { answers } = ran;
		if (!answers || !plan.checks) return Promise.resolve(null);
		if (!diagnosed.has(ran))
			diagnosed.set(
				ran,
				plannedMistakes(plan, databases).then((mistakes) => diagnose(plan.checks!, answers, mistakes))
			);
		return diagnosed.get(ran)!;
	};

	// A Go run (run-go.ts), shared like a TypeScript one by the submissions whose Go files are the same.
	const runGoOn = (submission: Submission, plan: Planned): Promise<ExerciseRun> => {
		const files = goExerciseFiles(plan.exercise, submission);
		const key = options.share ? `go ${exerciseKey(plan.exercise, files)} ${settingsKey}` : `${++unique}`;
		let pending = runs.get(key);
		if (!pending) {
			planned++;
			const run = () =>
				runGoExercise(sandbox, plan.exercise, files, plan.checks!, limits, plan.postgres ? databases : null);
			pending = limit(run).then((ran) => {
				options.onProgress?.(++done, planned, `${submission.name} ${plan.exercise.id} (Go)`);
				return ran;
			});
			runs.set(key, pending);
		}
		return pending;
	};

	// One run's verdicts, scrubbed, and its diagnosis when it lost points. Whatever goes wrong with one run costs
	// that exercise of that learner, never the class; a diagnosis that can't be made costs the diagnosis alone.
	const verdictsOf = async (
		plan: Planned,
		run: () => Promise<ExerciseRun>
	): Promise<{ verdicts: Verdict[]; diagnosis: Diagnosis | null; seconds: number }> => {
		try {
			const ran = await run();
			const verdicts = ran.verdicts.map(scrub);
			const diagnosis = verdicts.some((v) => v.status !== 'passed' && !v.free)
				? await diagnosisOf(plan, ran).catch((error: unknown) => {
						console.error(`${plan.exercise.id}: no diagnosis: ${String(error)}`);
						return null;
					})
				: null;
			return { verdicts, diagnosis, seconds: ran.seconds };
		} catch (error) {
			const why = error instanceof Error ? error.message : String(error);
			const message = scrub({ message: `the grader could not run it: ${why}` } as Verdict).message;
			return { verdicts: notExecuted(plan, message), diagnosis: null, seconds: 0 };
		}
	};

	const gradeOne = async (path: string, name: string): Promise<Graded> => {
		const submission = readSubmission(path, exercises, name);
		const batched = batchOn(submission);
		const diagnoses: Record<string, Diagnosis> = {};
		let seconds = 0;
		const scored = await Promise.all(
			plans.map(async (plan) => {
				const languages =
					plan.checks && !submission.notAWorkbook ? languagesOf(submission, plan.exercise) : [];
				if (languages.includes('Go')) {
					const scored = await Promise.all(
						languages.map(async (language) => {
							const run =
								language === 'Go' ? () => runGoOn(submission, plan) : () => runOn(submission, plan, batched);
							const one = await verdictsOf(plan, run);
							seconds += one.seconds;
							const exercise = scoreExercise(plan.exercise, one.verdicts, options);
							return { language, diagnosis: one.diagnosis, exercise };
						})
					);
					const counted = better(scored);
					const chosen = scored.find((one) => one.exercise.score === counted.score);
					// A Go run's diagnosis quotes Go's hints, for the learner who wrote the Go.
					const diagnosis =
						chosen?.diagnosis && chosen.language === 'Go'
							? inGo(chosen.diagnosis, plan.exercise)
							: chosen?.diagnosis;
					if (diagnosis) diagnoses[plan.exercise.id] = scrubDiagnosis(diagnosis);
					return counted;
				}
				let verdicts: Verdict[];
				if (!plan.checks) verdicts = [];
				else if (submission.notAWorkbook) verdicts = notExecuted(plan, submission.notAWorkbook);
				else if (!submitted(submission, plan.exercise)) {
					const files = plan.exercise.learnerFiles.map((file) => `exercises/${plan.exercise.folder}/${file}`);
					verdicts = notExecuted(
						plan,
						`not submitted: ${files.join(', ')} is not in the submission (or was not taken)`
					);
				} else {
					const one = await verdictsOf(plan, () => runOn(submission, plan, batched));
					verdicts = one.verdicts;
					seconds += one.seconds;
					if (one.diagnosis) diagnoses[plan.exercise.id] = scrubDiagnosis(one.diagnosis);
				}
				return scoreExercise(plan.exercise, verdicts, options);
			})
		);
		const graded: Graded = {
			submission,
			exercises: scored,
			...total(scored),
			stamps: { ...stampsBase, submission: submission.hash },
			seconds,
			unsafe: sandbox.bwrap === null,
			untraced: sandbox.bwrap !== null && sandbox.strace === null,
			diagnoses
		};
		try {
			options.onGraded?.(graded);
		} catch (error) {
			console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
		}
		return graded;
	};

	const graded = await Promise.all(
		named.flatMap((entry) => ('name' in entry ? [gradeOne(entry.path, entry.name)] : []))
	);
	return {
		graded,
		exercises,
		refused,
		unchecked: plans.filter((plan) => !plan.checks).map((plan) => plan.exercise.folder),
		sandbox,
		seconds: (Date.now() - started) / 1000,
		runs: planned,
		batches,
		rerun
	};
}
