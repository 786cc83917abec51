// Marks a test as playing one schedule file, so `npm run verify` can check that Go plays the same ones.
import type { TestOptions } from 'vitest';
import type { Located } from './schedules.ts';

declare module 'vitest' {
	interface TaskMeta {
		// "handler/lost-acknowledgment as receipt-in-commit": the schedule's kind and name, and the column
		// of its expectations this test holds the code to (left out when a schedule has just one).
		plays?: string;
	}
}

// "schedules/handler/one-delivery.json" → "handler/one-delivery".
export function scheduleKey(file: string): string {
	return file
		.replace(/\\/g, '/')
		.replace(/^schedules\//, '')
		.replace(/\.json$/, '');
}

// Test options for a test that plays the schedule: it('title', plays(schedule, 'column'), () => …).
export function plays(schedule: Located, as?: string): TestOptions {
	const key = scheduleKey(schedule.file);
	return { meta: { plays: as ? `${key} as ${as}` : key } };
}
