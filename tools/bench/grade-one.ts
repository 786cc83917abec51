// npx tsx tools/bench/grade-one.ts [exercise] [runs] [--unsafe] [--sample untouched]: one exercise of the complete
// submission graded sealed and traced, runs times one after the other (06 and 2 by default), with the grader's
// inputs (seed 1, four held-out checks of 25); `batch` for the exercise: the submission's exercises without a
// database in one batch, as a class grades them. Prints each run's wall time and its CPU as the kernel counts it (a
// cgroup v1 cpuacct group): the grader, its other processes (strace, bwrap, node with the learner's code, cp) and
// PostgreSQL. For comparing two checkouts on the same load: run it in each, alternately, and compare the pairs.
// --unsafe: no sandbox and no tracer (node run as the grader's unsafe mode runs it), for profiling what runs
// inside. --sample: another sample submission than the complete one (untouched: the stubs, whose run is little
// more than its start).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises } from '#harness/core/manifest.ts';
import { planExercises } from '../../grader/trusted/expect.ts';
import { GradingPostgres } from '../../grader/sandbox/postgres.ts';
import { settingsOf } from '../../grader/trusted/grade.ts';
import { maxObservations, runExercise, type ExerciseRun } from '../../grader/trusted/run-exercise.ts';
import { runBatch } from '../../grader/trusted/run-batch.ts';
import { findSandbox } from '../../grader/sandbox/sandbox.ts';
import { materializeSamples, samples } from '../../grader/samples/samples.ts';
import { exerciseFiles, readSubmission } from '../../grader/trusted/submission.ts';
import { cpuAccount, spent } from './cpu-account.ts';

const id = process.argv[2] ?? '06';
// An exercise the batch did not keep (it would be graded alone): said as a failure.
const notKept: ExerciseRun = {
	verdicts: [
		{
			file: 'batch',
			name: 'batch',
			heldOut: false,
			free: false,
			status: 'failed',
			message: 'not kept by the batch'
		}
	],
	seconds: 0,
	output: ''
};
const runs = Number(process.argv[3] ?? 2);
const account = cpuAccount();
if (!account) throw new Error('no cgroup v1 cpuacct controller here: nothing to count CPU with');
const dir = mkdtempSync(join(tmpdir(), 'bench-grade-one-'));
const databases = new GradingPostgres();
try {
	const at = process.argv.indexOf('--sample');
	const sample = at > 0 ? process.argv[at + 1]! : 'complete';
	const complete = materializeSamples(join(dir, 'samples'))[samples.findIndex((s) => s.name === sample)]!;
	const batch = id === 'batch';
	const chosen = exercises().filter((e) => (batch ? e.postgres !== 'only' : e.id === id));
	const settings = settingsOf({ seed: 1, heldOutChecks: 4, heldOutRuns: 25 });
	const plans = await planExercises(chosen, settings, undefined, databases);
	const submission = readSubmission(complete, exercises());
	const limits = { timeoutMs: 60_000, memoryMb: 1024, maxOutput: 65_536, maxObservations };
	const sealed = findSandbox({ unsafe: process.argv.includes('--unsafe') });
	const toGrade = plans.map((plan) => ({
		exercise: plan.exercise,
		files: exerciseFiles(plan.exercise, submission.files),
		checks: plan.checks!,
		database: plan.postgres ? databases : null
	}));
	const grade = async (): Promise<ExerciseRun[]> => {
		if (!batch) {
			const [one] = toGrade;
			return [await runExercise(sealed, one!.exercise, one!.files, one!.checks, limits, one!.database)];
		}
		const ran = await runBatch(sealed, toGrade, limits);
		return toGrade.map((one) => ran.get(one.exercise.folder) ?? notKept);
	};
	for (let i = 0; i < runs; i++) {
		const [before, begun] = [account.read(), Date.now()];
		const graded = await grade();
		const cpu = spent(account.read(), before);
		const failed = graded.flatMap((run) => run.verdicts).find((verdict) => verdict.status !== 'passed');
		console.log(
			`${batch ? 'the batch' : id} run ${i + 1}: ${((Date.now() - begun) / 1000).toFixed(2)} s, CPU ${cpu.all.toFixed(2)} s (the grader ${cpu.grader.toFixed(3)}, others ${(cpu.all - cpu.grader - cpu.postgres).toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}), ${graded.reduce((sum, run) => sum + (run.tracedCalls ?? 0), 0)} calls traced, load ${loadavg()[0]!.toFixed(1)}${failed ? `; ✘ ${failed.message}` : ''}`
		);
	}
} finally {
	await databases.stop();
	account.close();
	rmSync(dir, { recursive: true, force: true });
}
