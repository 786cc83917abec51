import { describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { ScheduleMismatch } from '#harness/core/mismatch.ts';
import { playHandlerSchedulesOneAtATime, playRaceSchedules } from '#harness/race/play.ts';
import { checkRaceProperty, exploreSameEvent, tellPropertyFailure, tellRun } from '#harness/race/explore.ts';
import type { Explored } from '#harness/scheduler/scheduler.ts';
import type { Outcome } from '#harness/core/model.ts';
import { handleAtomically } from './atomic.ts';

function noFailure(explored: Explored<Outcome>, what: string): void {
	const first = explored.failures[0];
	if (!first) return;
	throw new ScheduleMismatch(
		`${what}: ${explored.failed} of ${explored.complete} interleavings break "one ticket, one receipt, one worker created #1 and the rest replayed #1". The first:\n${first.problem}\n\n${tellRun(first.run)}`
	);
}

describe(heading('03'), () => {
	describe('atomic.ts: your fix', () => {
		playHandlerSchedulesOneAtATime('receipt-in-commit', handleAtomically);
		playRaceSchedules('atomic', handleAtomically);

		describe('every interleaving', () => {
			it(
				'two workers on evt-42: one ticket, one receipt, and each answers created #1 or replayed #1',
				{ timeout: 60_000 },
				async () => {
					const explored = await exploreSameEvent(handleAtomically, 2, { prune: false });
					noFailure(explored, 'Two workers on evt-42');
					expect(explored.complete).toBeGreaterThanOrEqual(20);
				}
			);

			it('three workers on evt-42: every state they can reach', { timeout: 60_000 }, async () => {
				noFailure(await exploreSameEvent(handleAtomically, 3), 'Three workers on evt-42');
			});
		});

		it(
			'property: up to four workers, random events, crashes and interleavings, one ticket per event',
			{ timeout: 60_000 },
			async () => {
				const failure = tellPropertyFailure(await checkRaceProperty(handleAtomically));
				if (failure) throw new ScheduleMismatch(failure);
			}
		);
	});
});
