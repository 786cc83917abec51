// The checks beyond the schedules: every interleaving of workers on one event, and a fast-check property over
// random workers, events, crashes and interleavings. Both print the trace of what went wrong; one interleaving is
// played, told and judged by interleaving.ts.
import fc from 'fast-check';
import { InMemoryDatabase, type Connection } from '../database/database.ts';
import type { Outcome } from '../core/model.ts';
import { answerOf, saidAnswer, tellOutcome, type RaceHandler } from './play.ts';
import { exploreAll, type ExploreOptions, type Run } from '../scheduler/scheduler.ts';
import {
	events,
	evt42,
	judgeOneTicketPerEvent,
	runPropertyCase,
	saidWorker,
	stopAtStub,
	tellRun,
	workerNames,
	type PropertyWorker
} from './interleaving.ts';

// The exercises' tests read a run's story from here, with the explorations.
export { tellRun };

// Workers on evt-42, none crashing: exactly one ticket and one receipt, one worker created #1, the rest replayed #1.
export function judgeSameEvent(run: Run<Outcome>): string | null {
	stopAtStub(run);
	const { tickets, receipts } = run.committed;
	const answers = [...run.endings].map(([name, ending]) => answerOf(name, ending));
	const problems: string[] = [];
	if (tickets.length !== 1) problems.push(`${tickets.length} tickets, not 1`);
	if (receipts.length !== 1) problems.push(`${receipts.length} receipts, not 1`);
	const id = receipts[0]?.ticketId;
	for (const answer of answers) {
		const fine = (answer.kind === 'created' || answer.kind === 'replayed') && answer.ticketId === id;
		if (!fine) problems.push(`${answer.worker} ${saidAnswer(answer)}`);
	}
	const created = answers.filter((answer) => answer.kind === 'created').length;
	if (created !== 1) problems.push(`${created} workers answered created`);
	return problems.length ? problems.join('; ') : null;
}

export function sameEventSetUp(handle: RaceHandler, workers: number) {
	return () => ({
		db: new InMemoryDatabase(),
		plans: workerNames.slice(0, workers).map((name) => ({
			name,
			run: (conn: Connection) => handle(conn, { ...evt42 })
		})),
		options: { tell: tellOutcome }
	});
}

// Every interleaving of `workers` workers on evt-42, judged by judgeSameEvent.
export function exploreSameEvent(handle: RaceHandler, workers: number, options: ExploreOptions = {}) {
	return exploreAll(sameEventSetUp(handle, workers), judgeSameEvent, options);
}
const propertyWorker: fc.Arbitrary<PropertyWorker> = fc.record({
	event: fc.constantFrom(...events),
	crashAfterOperations: fc.option(fc.nat({ max: 7 }), { nil: null, freq: 3 })
});

export const raceCases = fc.record({
	workers: fc.array(propertyWorker, { minLength: 1, maxLength: 4 }),
	choices: fc.array(fc.nat({ max: 23 }), { maxLength: 40 })
});

function said(workers: readonly PropertyWorker[]): string {
	return workers.map(saidWorker).join('\n');
}

const raceSeed = 20260303;

// The property, checked. Returns fast-check's details; reproduce a failure with RACE_SEED and RACE_PATH. The same
// cases every run (a fixed seed), so a wrong fix fails every time, the same way; RACE_SEED picks other cases.
export async function checkRaceProperty(handle: RaceHandler, numRuns = 300) {
	const seed = process.env.RACE_SEED ? Number(process.env.RACE_SEED) : raceSeed;
	const path = process.env.RACE_PATH;
	// A stub is said as a stub: one case played first shows it, with no seed to replay and nothing to shrink.
	const [first] = fc.sample(raceCases, { seed, numRuns: 1 });
	stopAtStub(await runPropertyCase(handle, first!.workers, first!.choices));
	const property = fc.asyncProperty(raceCases, async ({ workers, choices }) => {
		const run = await runPropertyCase(handle, workers, choices);
		const problem = judgeOneTicketPerEvent(run, workers);
		if (problem) throw new Error(`${problem}\n\nWorkers:\n${said(workers)}\n\n${tellRun(run)}`);
	});
	return fc.check(property, { numRuns, seed, ...(path ? { path } : {}) });
}

// The failure as a learner reads it: the seed to replay, the shrunk case, its trace.
export function tellPropertyFailure(details: Awaited<ReturnType<typeof checkRaceProperty>>): string | null {
	if (!details.failed) return null;
	const error =
		details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
	return [
		`The property "one ticket per event, and every worker answers with it" failed after ${details.numRuns} run${details.numRuns === 1 ? '' : 's'}.`,
		`Replay it: RACE_SEED=${details.seed} RACE_PATH=${details.counterexamplePath} npm test exercises/03`,
		'',
		error
	].join('\n');
}
