// What goes into the sandbox: job.json, the one file the grader writes for a run, read by inside/main.ts.
//
//   { folder: '01-first-handler', files: ['handler.ts'], freeze: ['harness/core/model.js', …],
//     checks: [{ observer: 'schedule', cases: [<a schedule without its expect>, …] }], postgres: null }
//
// A batch (grader/trusted/run-batch.ts) is several exercises of one submission in one run: job.json is then
//
//   { batch: [<a Job>, …] }   played in two passes: every exercise's given checks, then every exercise's held-out ones
//
// and heldOutFd carries a BatchHeldOut: the held-out inputs of each exercise, in the batch's order, and the marker.
//
// Types only: both sides of the sandbox's wall import them, and nothing here runs.

// For an exercise that uses PostgreSQL, where its own database is: a role and a database made for this run
// alone (grader/sandbox/postgres.ts); host is the folder of the server's Unix socket.
export type RunPostgres = { host: string; port: number; user: string; password: string; database: string };

// The held-out checks' inputs, by check number: what the grader writes on heldOutFd.
export type HeldOutInputs = Record<number, unknown[]>;

// What a run has besides its inputs, handed to every observer as its third argument.
export type RunContext = { postgres: RunPostgres | null };

export type Job = {
	folder: string;
	files: string[];
	// Harness modules to load and freeze before the learner's files (paths under the view).
	freeze: string[];
	// The inputs only: a schedule's own expectations stay outside, with the judge. A held-out check's cases are
	// not here (cases is empty): they come on heldOutFd, and are played after every given check.
	checks: { observer: string; cases: unknown[]; heldOut: boolean }[];
	// For an exercise with a database: where it is, and the run's own role.
	postgres: RunPostgres | null;
};

export type BatchJob = { batch: Job[] };

// What heldOutFd carries for a batch. marker: a path the observer names (and finds nothing at) as each part
// begins, so the grader's tracer knows which exercise the calls after it belong to; made of random bytes the
// grader drew for this run, read before learner code loads, so no learner code can name it.
export type BatchHeldOut = { marker: string; heldOut: HeldOutInputs[] };

// The path of part n of a batch: the observer's stat of it is what the tracer looks for (grader/sandbox/attempts.ts).
export const partMarker = (marker: string, n: number) => `/wb/.part-${marker}-${n}`;
