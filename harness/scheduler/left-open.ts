// A worker whose code returned, or threw, with its transaction still open: the scheduler's end of a worker
// (workers.ts) reads the connection's flag as the call comes back, and runWorkers() throws this once the run
// is over. go/scheduler/left_open.go says the same words.
//
//   throw new LeftOpen('B', 'B answers replayed #1', true, trace); // .story: the words without the trace
//   throw error.within('Schedule "duplicate" (…)');            // a ScheduleMismatch under the player's heading
import { ScheduleMismatch } from '../core/mismatch.ts';
import type { Contents } from '../database/database.ts';
import { tellTrace, type TraceLine } from './trace.ts';

// What leaving it open usually is, and what it does on a real server.
export const leftOpenMeans =
	'That is usually a return before commit or rollback, or a catch that throws again before it rolls back. ' +
	'On a real server the connection goes back to the pool idle in transaction, still holding what it read and ' +
	'locked: the next delivery handed that connection runs inside the old transaction, and the others wait ' +
	'for its locks.';

// "Worker B: your handler answered with its transaction still open (B answers replayed #1)."
export function leftOpenStory(worker: string, said: string, answered: boolean): string {
	const how = answered ? 'answered' : 'stopped with an error';
	return `Worker ${worker}: your handler ${how} with its transaction still open (${said}).\n${leftOpenMeans}`;
}

export class LeftOpen extends ScheduleMismatch {
	override name = 'LeftOpen';
	readonly story: string;

	// committed: what was committed once the run was over, for a player that shows it beside what it expects.
	constructor(
		readonly worker: string,
		said: string,
		answered: boolean,
		trace: readonly TraceLine[],
		readonly committed: Contents | null = null
	) {
		const story = leftOpenStory(worker, said, answered);
		super(`${story}\n\nWhat happened, step by step:\n${tellTrace(trace)}`);
		this.story = story;
	}

	// The same story under a player's heading (the schedule, the delivery), with what it adds after it.
	within(heading: string, after = ''): ScheduleMismatch {
		return new ScheduleMismatch(`${heading}\n${this.message}${after}`);
	}
}
