// What an observer is: the one piece of per-exercise code that runs inside the sandbox, next to the learner's.
//
//   export const observers: Observers = {
//   	schedule: ({ 'handler.ts': code }, schedule) => playHandler(schedule, new code.TicketHandler())
//   	// a third argument, the run's context: run.postgres, where its database is (null if it has none)
//   };
//
// An observer gets the learner's modules (by file name, as the manifest lists them) and one input the grader
// handed in as data, calls the learner's code on it, and returns what the code did as plain JSON: answers,
// rows, traces. It never judges. The grader runs the same observer on the reference solution, outside the
// sandbox, and compares (grader/checks/<folder>.held.ts says how). Nothing here is secret: the sandbox holds only
// this folder of the grader and grader/channel, never the held-out files, the reference or the expectations.
import type { RunContext } from '../channel/job.ts';
import type { SaidError } from '../channel/observations.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Code = Record<string, any>;
// run: what a run has besides its inputs (grader/channel/job.ts), such as where its database is.
export type Observer = (code: Code, input: any, run: RunContext) => unknown;
export type Observers = Record<string, Observer>;

// An error as data: a judge outside the sandbox can only read its name and message.
export function saidError(error: unknown): SaidError {
	if (error instanceof Error) return { name: String(error.name), message: String(error.message) };
	return { name: 'thrown', message: String(error) };
}
