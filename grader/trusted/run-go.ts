// One exercise of a Go submission: built outside the sandbox (sandbox/go-build.ts), run inside it with the
// same limits, the same channel (the key on fd 4, the held-out inputs on fd 5, sealed lines on fd 3), the same
// checks and the same judges as TypeScript's runs (run-exercise.ts), so a point means the same in both.
//
//   const ran = await runGoExercise(sandbox, exercise, goFiles, checks, limits, databases);
//
// goFiles are the learner's Go files, by path under go/exercises/. What the Go observer
// (go/grader/observe/<folder>/) sends back is read and judged by the very functions TypeScript's runs use.
// An exercise that stores in PostgreSQL (06) gets its database as TypeScript's runs get theirs: a cluster of
// its own (sandbox/postgres.ts), its socket alone bound into the sandbox, its size watched against the quota,
// and the cluster killed with its folder when the run is done.
import { rmSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';
import { buildGo, removeGoBuild } from '../sandbox/go-build.ts';
import { socketInSandbox, type GradingPostgres, type RunDatabase } from '../sandbox/postgres.ts';
import { runSandboxed, type Sandbox, type SandboxLimits } from '../sandbox/sandbox.ts';
import { newViewFolder } from '../sandbox/tree.ts';
import type { PlannedCheck } from './expect.ts';
import {
	answersFrom,
	jobOf,
	notRun,
	readObservations,
	verdictsFrom,
	zeroFor,
	type ExerciseRun
} from './run-exercise.ts';

export async function runGoExercise(
	sandbox: Sandbox,
	exercise: Exercise,
	files: Map<string, string>,
	checks: PlannedCheck[],
	given: SandboxLimits,
	databases?: GradingPostgres | null
): Promise<ExerciseRun> {
	const limits = { ...given, timeoutMs: given.timeoutMs * (exercise.timeLimitFactor ?? 1) };
	const started = Date.now();
	const built = await buildGo(exercise, files);
	const seconds = () => (Date.now() - started) / 1000;
	if ('forfeit' in built) return { verdicts: zeroFor(checks, built.forfeit), seconds: seconds(), output: '' };
	if ('error' in built) return { verdicts: notRun(checks, built.error), seconds: seconds(), output: '' };
	const view = newViewFolder('grade-go-view-');
	let database: RunDatabase | null = null;
	try {
		if (databases) database = await databases.runDatabase();
		// Inside the sandbox the server's socket is bound at socketInSandbox; without one, it is where it is.
		const postgres = database
			? { ...database.job, host: sandbox.bwrap ? socketInSandbox : database.job.host }
			: null;
		const { job, heldOut } = jobOf(exercise, checks, postgres, []);
		writeFileSync(join(view, 'job.json'), JSON.stringify(job));
		// The sandbox's user is not the grader's: it may read the view and run the program, never write them.
		chmodSync(view, 0o755);
		chmodSync(join(view, 'job.json'), 0o644);
		chmodSync(built.dir, 0o755);
		chmodSync(built.binary, 0o755);
		// A database past its quota on disk stops the run at once.
		const full = new AbortController();
		const size = database?.watchSize((why) => {
			full.abort(why);
			void database!.drop();
		});
		const ran = await runSandboxed(
			sandbox,
			{
				harness: view,
				view,
				folder: exercise.folder,
				program: built.binary,
				socketFolder: database?.job.host ?? null,
				abort: full.signal,
				heldOut: JSON.stringify(heldOut)
			},
			limits
		).finally(() => size?.stop());
		// The channel read once (each of its lines' seals checked), for the verdicts and the answers both.
		const observed = readObservations(ran.observations, checks, ran);
		return {
			verdicts: verdictsFrom(checks, ran, limits, exercise, observed),
			answers: answersFrom(checks, ran, observed),
			seconds: seconds(),
			output: ran.output,
			tracedCalls: ran.tracedCalls
		};
	} finally {
		await database?.drop();
		rmSync(view, { recursive: true, force: true });
		removeGoBuild(built);
	}
}
