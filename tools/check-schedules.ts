// Loads every schedule through its loader, so a malformed file is named with its field; and checks that the
// compiled validators the loader uses match the JSON Schemas (`npm run schedules -- --write` rewrites them).
import { clientJourneys } from '#harness/client/journeys.ts';
import { endpointSchedules } from '#harness/endpoint/schedules.ts';
import { handlerSchedules } from '#harness/handler/schedules.ts';
import { outboxSchedules } from '#harness/outbox/schedules.ts';
import { raceSchedules } from '#harness/race/schedules.ts';
import { statusSchedules } from '#harness/status/schedules.ts';
import { validatorsAreFresh, writeValidators } from './validators.ts';

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
	if (validatorsAreFresh()) passed.push('the compiled validators match schedules/schema/');
	else
		failed.push(
			'harness/core/validators/: not compiled from the JSON Schemas as they are now: run npm run schedules -- --write'
		);
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
	if (process.argv.includes('--write')) writeValidators();
	const { passed, failed } = checkSchedules();
	for (const problem of failed) console.error(`✘ ${problem}`);
	console.log(`schedules: ${passed.length} passed, ${failed.length} failed`);
	process.exitCode = failed.length ? 1 : 0;
}
