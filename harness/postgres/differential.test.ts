import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handleSeparately } from '../../exercises/03-the-race/separate.ts';
import { handleAtomically } from '../../solutions/03-the-race/atomic.ts';
import { InMemoryDatabase, type Connection } from '../database/database.ts';
import { crashOf, type RaceHandler } from '../race/play.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { raceCases } from '../race/explore.ts';
import { propertyPlans, saidWorker, type PropertyWorker } from '../race/interleaving.ts';
import { raceSchedules } from '../race/schedules.ts';
import { fromNumbers, inTurn } from '../scheduler/scheduler.ts';
import { differ } from './differential.ts';
import { PostgresPlace } from './place.ts';

// Each handler the differential check plays: the given race, and the fix.
const handlers: [string, RaceHandler][] = [
	['separate.ts', handleSeparately],
	['atomic.ts (the solution)', handleAtomically]
];
// DIFF_SEED replays one sample of random interleavings (by default the same sample every run); DIFF_RUNS sizes it.
const seed = Number(process.env.DIFF_SEED ?? 14);
const runs = Number(process.env.DIFF_RUNS ?? 40);

let place: PostgresPlace;
beforeAll(async () => {
	place = await PostgresPlace.create(inject('postgresUrl'));
});
afterAll(async () => {
	await place?.drop();
});

function said(workers: readonly PropertyWorker[], choices: readonly number[]): string {
	return `random workers (${workers.map(saidWorker).join('; ')}), picks [${choices.join(', ')}]`;
}

describe('the in-memory model and PostgreSQL tell the same story', () => {
	for (const [label, handle] of handlers) {
		describe(label, () => {
			for (const schedule of raceSchedules()) {
				it(`race schedule "${schedule.name}"`, async () => {
					const plans = () =>
						schedule.workers.map((worker) => ({
							name: worker.name,
							run: (conn: Connection) => handle(conn, { ...worker.event }),
							crash: crashOf(worker)
						}));
					const problem = await differ(
						`schedule "${schedule.name}" with ${label}`,
						plans,
						() => inTurn(schedule.interleaving),
						() => place.fresh()
					);
					if (problem) throw new ScheduleMismatch(problem);
				});
			}

			it(`${runs} random interleavings of up to four workers, with crashes (seed ${seed})`, async () => {
				const result = await fc.check(
					fc.asyncProperty(raceCases, async ({ workers, choices }) => {
						const problem = await differ(
							said(workers, choices),
							() => propertyPlans(handle, workers),
							() => fromNumbers(choices),
							() => place.fresh()
						);
						if (problem) throw new Error(problem);
					}),
					{ numRuns: runs, seed, endOnFailure: true }
				);
				if (result.failed) {
					const cause = result.errorInstance instanceof Error ? result.errorInstance.message : '';
					throw new ScheduleMismatch(
						`${cause}\nReplay it: DIFF_SEED=${result.seed} npx vitest run --project postgres differential (path ${result.counterexamplePath})`
					);
				}
			});
		});
	}
});

// A model with a planted bug: its unique keys never wait, so two open transactions both insert evt-42.
class ModelThatNeverWaits extends InMemoryDatabase {
	override lock(): null {
		return null;
	}
}

describe('the differential check catches a model that is wrong', () => {
	it('a model whose unique keys never wait disagrees with PostgreSQL, and the report shows where', async () => {
		const schedule = raceSchedules().find((s) => s.name === 'two-workers-alternate')!;
		const problem = await differ(
			`schedule "${schedule.name}"`,
			() =>
				schedule.workers.map((worker) => ({
					name: worker.name,
					run: (conn: Connection) => handleAtomically(conn, { ...worker.event })
				})),
			() => inTurn(schedule.interleaving),
			() => place.fresh(),
			() => new ModelThatNeverWaits()
		);
		expect(problem).toMatch(/disagree on schedule "two-workers-alternate"/);
		expect(problem).toMatch(
			/The traces part at line \d+:\n {2}model: .*\n {2}PostgreSQL: .*waits for it to end/
		);
	});
});
