// The status property: made-up schedules (made-up.ts) played against the learner's rules and held to the
// contract's model (contract.ts), answer by answer and in the end state. A failure is the shortest schedule
// fast-check found, told as a shipped schedule's failure is, with the seed and path to replay it.
//
//   exploreStatus(() => ({ setStatus, addComment }));        // explore.ts: an it() in 07's tests, 100 runs
//   brokenStatusSchedule(rules, { runs: 2000, seed: 7 });    // the failure's words, or null
//
// STATUS_SEED and STATUS_PATH replay a failure; the same seed every run otherwise, so a learner sees the
// same schedule until it is fixed.
import fc from 'fast-check';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { madeUpSchedules, madeUpSteps, madeUpSchedule } from './made-up.ts';
import { judgeStatus, playStatus, stopAtStub } from './play.ts';
import type { Rules } from './model.ts';

export const statusSeed = 20260707;

type Settings = { runs?: number; seed?: number; path?: string };

export function brokenStatusSchedule(rules: Rules, settings: Settings = {}): string | null {
	const seed = settings.seed ?? (process.env.STATUS_SEED ? Number(process.env.STATUS_SEED) : statusSeed);
	const path = settings.path ?? process.env.STATUS_PATH;
	// A stub is said as a stub: one schedule played first shows it, before fast-check shrinks anything.
	const [first] = fc.sample(madeUpSteps, { seed, numRuns: 1 });
	stopAtStub(rules, madeUpSchedule(first!));
	const property = fc.property(madeUpSchedules, (schedule) => {
		const problem = judgeStatus(schedule, 'versioned', playStatus(schedule, rules));
		if (problem) throw new ScheduleMismatch(problem);
	});
	const details = fc.check(property, { numRuns: settings.runs ?? 100, seed, ...(path ? { path } : {}) });
	if (!details.failed) return null;
	const error = details.errorInstance;
	const why = error instanceof Error ? error.message : String(error);
	return [
		`A made-up schedule breaks the contract: the shortest fast-check found after ${details.numRuns} run${details.numRuns === 1 ? '' : 's'} (shrunk ${details.numShrinks} times).`,
		`Replay it: STATUS_SEED=${details.seed} STATUS_PATH=${details.counterexamplePath} npm test exercises/07`,
		'',
		why
	].join('\n');
}
