// Exercise 03's held-out checks: the learner's atomic handler on random workers, events, crashes and
// interleavings from the grader's seed. Two right fixes may order their operations differently, so this holds
// the fix to what must hold (one ticket per event, every worker answers with it), which the reference passes.
import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { judgeOneTicketPerEvent, raceCases, runPropertyCase, tellRun } from '#shared/race-checks.ts';
import { handleAtomically } from '../../exercises/03-the-race/atomic.ts';
import { heldOutChecks } from './seed.ts';

describe(heading('03'), () => {
	heldOutChecks('race cases', raceCases, async ({ workers, choices }) => {
		const run = await runPropertyCase(handleAtomically, workers, choices);
		const problem = judgeOneTicketPerEvent(run, workers);
		return problem && `${problem}\n\n${tellRun(run)}`;
	});
});
