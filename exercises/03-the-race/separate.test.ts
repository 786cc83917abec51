import { describe, expect, it } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { playHandlerSchedulesOneAtATime, playRaceSchedules } from '#shared/players/play-race.ts';
import {
	checkRaceProperty,
	exploreSameEvent,
	tellPropertyFailure,
	tellRun
} from '#shared/players/race-checks.ts';
import { handleSeparately } from './separate.ts';

// These pass as shipped: they pin what separate.ts does, bug included.
describe(heading('03'), () => {
	describe('separate.ts (given): right one at a time, wrong two at once', () => {
		playHandlerSchedulesOneAtATime('receipt-in-commit', handleSeparately);
		playRaceSchedules('separate', handleSeparately);

		it(
			'every interleaving of two workers on evt-42: some leave two tickets (the first is printed)',
			{ timeout: 60_000 },
			async () => {
				const explored = await exploreSameEvent(handleSeparately, 2, { prune: false });
				expect(explored.complete, 'six operations, three each, interleave 20 ways').toBe(20);
				expect(
					explored.failed,
					'interleavings that break "one ticket, every worker answers #1"'
				).toBeGreaterThan(0);
				const first = explored.failures[0]!;
				console.log(
					`separate.ts breaks in ${explored.failed} of ${explored.complete} interleavings. The first:\n${first.problem}\n${tellRun(first.run)}`
				);
				expect(first.problem).toMatch(/2 tickets, not 1/);
			}
		);

		it(
			'the property finds a counterexample too, and prints its seed and trace',
			{ timeout: 60_000 },
			async () => {
				const details = await checkRaceProperty(handleSeparately, 200);
				expect(details.failed, 'separate.ts must not pass the property').toBe(true);
				expect(tellPropertyFailure(details)).toMatch(/RACE_SEED=-?\d+ RACE_PATH=\S+[^]*interleaving: /);
			}
		);
	});
});
