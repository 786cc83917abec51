import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { playStatusSchedules } from '#shared/players/play-status.ts';
import { asItArrives, receiptsOnly } from './without-versions.ts';

// The given code's tests pass from the start: they pin what it does, the late close included.
describe(heading('07'), () => {
	describe('given: without versions', () => {
		playStatusSchedules('as-it-arrives', () => asItArrives);
		playStatusSchedules('receipts-only', () => receiptsOnly);
	});
});
