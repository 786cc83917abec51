// A worker whose code returned, or threw, with its transaction still open: the scheduler's end of a worker
// (workers.ts) reads the connection's flag as the call comes back, and runWorkers() throws this once the run
// is over. go/scheduler/left_open.go says the same words.
//
//   throw new LeftOpen('B', 'B answers replayed #1', true, trace); // .story: the words without the trace
//   throw error.within('Schedule "duplicate" (…)');            // a ScheduleMismatch under the player's heading
import { ScheduleMismatch } from '../core/mismatch.ts';
import type { Contents, SharedDatabase } from '../database/database.ts';
import type { Run } from './scheduler.ts';
import { tellTrace, type TraceLine } from './trace.ts';

// What leaving it open usually is, and what it does on a real server.
export const leftOpenMeans =
	'Usually a return or a throw before commit or rollback. On a real server the connection goes back idle in ' +
	'transaction, and the next delivery on it waits or runs inside it.';

// "Worker B: your handler answered with its transaction still open (B answers replayed #1)."
export function leftOpenStory(worker: string, said: string, answered: boolean): string {
	const how = answered ? 'answered' : 'stopped with an error';
	return `Worker ${worker}: your handler ${how} with its transaction still open (${said}).\n${leftOpenMeans}`;
}

export class LeftOpen extends ScheduleMismatch {
	override name = 'LeftOpen';
	readonly story: string;

	// run: the run as it ended, for a player that judges it too (exploreAll) or shows what was committed
	// beside what it expects (the race schedules).
	constructor(
		readonly worker: string,
		said: string,
		answered: boolean,
		trace: readonly TraceLine[],
		readonly run: Run<unknown, SharedDatabase> | null = null
	) {
		const story = leftOpenStory(worker, said, answered);
		super(`${story}\n\nWhat happened, step by step:\n${tellTrace(trace)}`);
		this.story = story;
	}

	get committed(): Contents | null {
		return this.run?.committed ?? null;
	}

	// The same story under a player's heading (the schedule, the delivery), with what it adds after it.
	within(heading: string, after = ''): ScheduleMismatch {
		return new ScheduleMismatch(`${heading}\n${this.message}${after}`);
	}
}
