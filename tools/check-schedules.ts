// Loads every schedule through its loader, so a malformed file is named with its field; and checks that the
// compiled validators the loader uses match the JSON Schemas (`npm run schedules -- --write` rewrites them).
// Each kind's loader is found by its call of loadSchedules (schedule-kinds.ts): a new kind needs no line here.
import { loaderOf, scheduleKinds } from './schedule-kinds.ts';
import { schemaKinds, validatorsAreFresh, writeValidators } from './validators.ts';
import { isMain } from '../lib/main-module.ts';

export async function checkSchedules(): Promise<{ passed: string[]; failed: string[] }> {
	const passed: string[] = [];
	const failed: string[] = [];
	if (validatorsAreFresh()) passed.push('the compiled validators match schedules/schema/');
	else
		failed.push(
			'harness/core/validators/: not compiled from the JSON Schemas as they are now: run npm run schedules -- --write'
		);
	const kinds = scheduleKinds();
	for (const kind of schemaKinds().filter((kind) => !kinds.some((k) => k.kind === kind)))
		failed.push(
			`schedules/schema/${kind}.schema.json: no loader reads its schedules (in harness/${kind}/: export function ${kind}Schedules() { return loadSchedules<…>('${kind}', …) })`
		);
	for (const kind of kinds) {
		try {
			const load = await loaderOf(kind);
			passed.push(...load().map((schedule) => `${kind.kind}/${schedule.name}`));
		} catch (error) {
			failed.push((error as Error).message);
		}
	}
	return { passed, failed };
}

if (isMain(import.meta.url)) {
	if (process.argv.includes('--write')) writeValidators();
	const { passed, failed } = await checkSchedules();
	for (const problem of failed) console.error(`✘ ${problem}`);
	console.log(`schedules: ${passed.length} passed, ${failed.length} failed`);
	process.exitCode = failed.length ? 1 : 0;
}
