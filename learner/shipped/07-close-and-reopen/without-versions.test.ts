import { describe } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { playStatusSchedules } from '#harness/status/play.ts';
import { asItArrives, receiptsOnly } from './without-versions.ts';

// The given code's tests pass from the start: they pin what it does, the late close included.
describe(heading('07'), () => {
	describe('given: without versions', () => {
		playStatusSchedules('as-it-arrives', () => asItArrives);
		playStatusSchedules('receipts-only', () => receiptsOnly);
	});
});
