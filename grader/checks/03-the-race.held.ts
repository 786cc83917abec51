// Exercise 03's checks: the prediction, the atomic handler on the shipped handler and race schedules, and on
// interleavings of random workers. Two right fixes may order their operations differently, so interleavings
// are judged on what must hold (one ticket per event, every worker answers with it), never against the
// reference step by step; the reference must pass them too.
import fc from 'fast-check';
import { DatabaseError } from '#harness/database/database.ts';
import type { Contents } from '#harness/database/database.ts';
import { handlerSchedules, type HandlerSchedule } from '#harness/handler/schedules.ts';
import type { Outcome } from '#harness/core/model.ts';
import { judgeHandler } from '#harness/handler/play.ts';
import { judgeRace, type RacePlayed } from '#harness/race/play.ts';
import { raceCases } from '#harness/race/explore.ts';
import { judgeOneTicketPerEvent, type PropertyWorker } from '#harness/race/interleaving.ts';
import { judgePrediction, type Prediction } from '#harness/race/prediction.ts';
import { raceSchedules, type Answer, type RaceSchedule } from '#harness/race/schedules.ts';
import type { Ending, Run } from '#harness/scheduler/scheduler.ts';
import type { TraceLine } from '#harness/scheduler/trace.ts';
import { heldOut, type Check, type Probe } from '../trusted/probe.ts';

type Interleaved = { answers: Answer[]; contents: Contents; told: string; stub: string | null };
type Raced = { answers: Answer[]; contents: Contents; trace: TraceLine[]; stub: string | null };

// The run the judge reads, rebuilt from the answers the sandbox reported.
function runOf({ answers, contents }: Pick<Interleaved, 'answers' | 'contents'>): Run<Outcome> {
	const endings = new Map<string, Ending<Outcome>>(
		answers.map((answer) => {
			if (answer.kind === 'crashed') return [answer.worker, { kind: 'crashed' }];
			if (answer.kind !== 'failed')
				return [
					answer.worker,
					{ kind: 'answered', value: { kind: answer.kind, ticketId: answer.ticketId } as Outcome }
				];
			const error =
				answer.error && answer.error !== 'other'
					? Object.assign(Object.create(DatabaseError.prototype), { code: answer.error })
					: new Error('an error');
			return [answer.worker, { kind: 'failed', error }];
		})
	);
	return {
		endings,
		steps: [],
		trace: [],
		stopped: false,
		committed: contents
	} as unknown as Run<Outcome>;
}

const interleavings = (input: { workers: PropertyWorker[] }, seen: Interleaved) => {
	if (seen.stub) return seen.stub;
	const problem = judgeOneTicketPerEvent(runOf(seen), input.workers);
	return problem && `${problem}\n\n${seen.told}`;
};

function prediction(): Check {
	const schedule = raceSchedules().find((s) => s.name === 'two-workers-alternate')!;
	return {
		name: 'your prediction (prediction.ts): how many tickets and receipts separate.ts leaves when two workers alternate, and what B gets',
		heldOut: false,
		observer: 'prediction',
		cases: [null],
		judge: (_input, guessed: Prediction) => judgePrediction(guessed, schedule)
	};
}

const oneAtATime = (schedule: HandlerSchedule): Check => ({
	name: `the handler schedules, one delivery at a time, as receipt-in-commit › ${schedule.title}`,
	heldOut: false,
	observer: 'one-at-a-time',
	cases: [schedule],
	judge: (input: HandlerSchedule, seen: { outcomes: Outcome[]; db: Contents; story: string }) => {
		const problem = judgeHandler(input, 'receipt-in-commit', { outcomes: seen.outcomes, db: seen.db });
		return problem && `${problem}\n\nWhat happened:\n${seen.story}`;
	}
});

const race = (schedule: RaceSchedule): Check => ({
	name: `the race schedules, as atomic › ${schedule.title}`,
	heldOut: false,
	observer: 'race',
	cases: [schedule],
	judge: (input: RaceSchedule, seen: Raced) => {
		if (seen.stub) return `${seen.stub}\n(stopped at schedule "${input.name}")`;
		const played = { run: { trace: seen.trace }, answers: seen.answers, contents: seen.contents };
		return judgeRace(input, 'atomic', played as unknown as RacePlayed);
	}
});

export const probe: Probe = (settings) => [
	prediction(),
	...handlerSchedules().map(oneAtATime),
	...raceSchedules().map(race),
	{
		name: 'interleavings: up to four workers, random events, crashes and interleavings (the same ones every time)',
		heldOut: false,
		observer: 'interleaving',
		cases: fc.sample(raceCases, { seed: 3, numRuns: 40 }),
		judge: interleavings
	},
	...heldOut(settings, 'race cases', raceCases, () => ({ observer: 'interleaving', judge: interleavings }))
];
