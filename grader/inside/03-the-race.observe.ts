// Exercise 03 in the sandbox: the prediction as data, and the learner's atomic handler played on handler
// schedules one delivery at a time, on the race schedules, and on interleavings the grader picked.
import { answerOf, playDeliveries, playRace, stubIn } from '#harness/race/play.ts';
import { runPropertyCase, tellRun, type PropertyWorker } from '#harness/race/interleaving.ts';
import { tellTrace } from '#harness/scheduler/trace.ts';
import type { Observers } from './observer.ts';

export const observers: Observers = {
	prediction: ({ 'prediction.ts': code }) => ({ ...code.prediction }),
	'one-at-a-time': async ({ 'atomic.ts': code }, schedule) => {
		const { outcomes, db } = await playDeliveries(schedule, code.handleAtomically);
		return { outcomes, db: await db.committed(), story: tellTrace(db.trace) };
	},
	race: async ({ 'atomic.ts': code }, schedule) => {
		const { run, answers, contents } = await playRace(schedule, code.handleAtomically);
		return { answers, contents, trace: run.trace, stub: stubIn(run)?.message ?? null };
	},
	interleaving: async (
		{ 'atomic.ts': code },
		{ workers, choices }: { workers: PropertyWorker[]; choices: number[] }
	) => {
		const run = await runPropertyCase(code.handleAtomically, workers, choices);
		const answers = workers.map((_, i) => {
			const name = String.fromCharCode(65 + i);
			return answerOf(name, run.endings.get(name));
		});
		return { answers, contents: run.committed, told: tellRun(run), stub: stubIn(run)?.message ?? null };
	}
};
