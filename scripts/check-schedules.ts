// Loads every schedule through its loader, so a malformed file is named with its field.
import { clientJourneys } from '#shared/loaders/client-journeys.ts';
import { endpointSchedules } from '#shared/endpoint/schedules.ts';
import { handlerSchedules } from '#shared/loaders/handler-schedules.ts';
import { outboxSchedules } from '#shared/loaders/outbox-schedules.ts';
import { raceSchedules } from '#shared/loaders/race-schedules.ts';
import { statusSchedules } from '#shared/loaders/status-schedules.ts';

// Each kind of schedule, with the loader that checks it. Add a line here when a kind lands.
export const scheduleKinds: Record<string, () => { name: string }[]> = {
	handler: handlerSchedules,
	outbox: outboxSchedules,
	client: clientJourneys,
	race: raceSchedules,
	status: statusSchedules,
	endpoint: endpointSchedules
};

export function checkSchedules(): { passed: string[]; failed: string[] } {
	const passed: string[] = [];
	const failed: string[] = [];
	for (const [kind, load] of Object.entries(scheduleKinds)) {
		try {
			passed.push(...load().map((schedule) => `${kind}/${schedule.name}`));
		} catch (error) {
			failed.push((error as Error).message);
		}
	}
	return { passed, failed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { passed, failed } = checkSchedules();
	for (const problem of failed) console.error(`✘ ${problem}`);
	console.log(`schedules: ${passed.length} passed, ${failed.length} failed`);
	process.exitCode = failed.length ? 1 : 0;
}
