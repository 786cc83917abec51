import { describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { playHandlerSchedulesOneAtATime, playRaceSchedules } from '#harness/race/play.ts';
import {
	checkRaceProperty,
	exploreSameEvent,
	sameEventSetUp,
	tellPropertyFailure,
	tellRun
} from '#harness/race/explore.ts';
import { exploreAll } from '#harness/scheduler/scheduler.ts';
import type { RaceHandler } from '#harness/race/play.ts';
import { handleSeparately } from './separate.ts';

// These pass as shipped: they pin what separate.ts does, bug included.
// The first handler (exercise 01), over the database: every delivery saves a ticket.
const createEveryTime: RaceHandler = async (conn, event) => ({
	kind: 'created',
	ticketId: await conn.saveTicket({ tenant: event.tenant, subject: event.subject })
});

describe(heading('03'), () => {
	describe("the first handler, two at once (the lesson's section 09: create every time makes two tickets)", () => {
		it('two workers get evt-42 at once: in every interleaving, two tickets, each worker answering created', async () => {
			const explored = await exploreAll(sameEventSetUp(createEveryTime, 2), (run) => {
				const { tickets } = run.db.committed();
				const created = [...run.endings.values()].filter(
					(ending) => ending.kind === 'answered' && ending.value.kind === 'created'
				).length;
				return tickets.length === 2 && created === 2
					? null
					: `${tickets.length} tickets and ${created} workers answered created, not 2 and 2`;
			});
			expect(explored.complete, 'one save each: two orders').toBe(2);
			expect(explored.failures.map((failure) => failure.problem)).toEqual([]);
		});
	});

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
