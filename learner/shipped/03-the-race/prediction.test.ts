import { describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { ScheduleMismatch } from '#harness/core/mismatch.ts';
import { playRace } from '#harness/race/play.ts';
import { tellRun } from '#harness/race/explore.ts';
import { judgePrediction } from '#harness/race/prediction.ts';
import { raceSchedules } from '#harness/race/schedules.ts';
import { prediction } from './prediction.ts';
import { handleSeparately } from './separate.ts';

describe(heading('03'), () => {
	describe('your prediction (prediction.ts), before you run anything', () => {
		it('how many tickets and receipts separate.ts leaves when two workers alternate, and what B gets', async () => {
			const schedule = raceSchedules().find((s) => s.name === 'two-workers-alternate')!;
			const problem = judgePrediction(prediction, schedule);
			if (problem) throw new ScheduleMismatch(problem);
			const { run, contents } = await playRace(schedule, handleSeparately);
			// The guess matched the schedule; the race itself, played now, must leave what was guessed.
			expect(contents.tickets, 'tickets separate.ts left').toHaveLength(prediction.tickets!);
			expect(contents.receipts, 'receipts separate.ts left').toHaveLength(prediction.receipts!);
			console.log(`Your prediction is right. Here is the race, step by step:\n${tellRun(run)}`);
		});
	});
});
