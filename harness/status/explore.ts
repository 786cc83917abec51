// The status property as 07's test file calls it: one it() whose stub check needs no fast-check, so a run of the
// shipped stubs never loads it (its first use in a thread costs a tenth of a second and more). Past the check,
// property.ts plays the made-up schedules as before.
//
//   exploreStatus(() => ({ setStatus, addComment }));        // 100 made-up schedules, a fixed seed
import { it } from 'vitest';
import { ScheduleMismatch } from '../core/mismatch.ts';
import type { Rules } from './model.ts';
import { stopAtStub } from './play.ts';
import { statusSchedules } from './schedules.ts';

export function exploreStatus(rules: () => Rules, runs = 100): void {
	it(`made-up schedules (${runs}, fast-check): three tickets, retries, late copies and crashes, held to the contract`, async () => {
		const given = rules();
		// A stub is said as a stub: the shipped schedules, played first, meet it before anything is drawn.
		for (const schedule of statusSchedules()) stopAtStub(given, schedule);
		const { brokenStatusSchedule } = await import('./property.ts');
		const problem = brokenStatusSchedule(given, { runs });
		if (problem) throw new ScheduleMismatch(problem);
	});
}
