// Loads the shared JSON schedules, checks each against its JSON Schema, and names the file and field that is wrong.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { compiledValidators } from './validators/compiled.js';
const root = fileURLToPath(new URL('../../', import.meta.url));
export const schedulesDir = join(root, 'schedules');

export class ScheduleError extends Error {
	override name = 'ScheduleError';
}

// Each kind's JSON Schema, compiled ahead of time (tools/validators.ts; verify checks they match the schemas).
const validators: Record<string, ValidateFunction | undefined> = compiledValidators();

function validatorFor(kind: string): ValidateFunction {
	const validate = validators[kind];
	if (!validate)
		throw new ScheduleError(
			`schedules/schema/${kind}.schema.json: no validator compiled for it (npm run schedules -- --write)`
		);
	return validate;
}

// "/deliveries/1/fault" reads better as "deliveries[1].fault".
export function fieldName(pointer: string): string {
	return pointer
		.split('/')
		.slice(1)
		.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
		.join('')
		.replace(/^\./, '');
}

function explain(error: ErrorObject): string | null {
	const at = fieldName(error.instancePath);
	const under = at ? `${at}.` : '';
	const params = error.params as Record<string, unknown>;
	switch (error.keyword) {
		case 'additionalProperties':
			return `${under}${params.additionalProperty}: not a field here (misspelled?)`;
		case 'required':
			return `${under}${params.missingProperty}: missing`;
		// Always beside a "required" or "enum" error on the same field, which says it better.
		case 'discriminator':
			return null;
		case 'enum':
			return `${at || 'the file'}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
		default:
			return `${at || 'the file'}: ${error.message}`;
	}
}

export type Located = { file: string };
// A check after the schema: it names the field that is wrong, and the loader adds the file.
export type Check<T> = (schedule: T, fail: (field: string, problem: string) => never) => void;

// Every schedule of one kind (a folder under schedules/): in the lesson's order where a schedule gives one
// ("order"), then by file name.
export function loadSchedules<T extends { name: string }>(kind: string, check?: Check<T>): (T & Located)[] {
	const folder = join(schedulesDir, kind);
	const files = readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.sort();
	const loaded = files.map((file) => loadSchedule(kind, join(folder, file), check));
	// The lesson's order where a schedule gives one ("order"), so the test list reads like the lesson.
	const place = (schedule: T) => (schedule as { order?: number }).order ?? Number.POSITIVE_INFINITY;
	return loaded.sort((a, b) => place(a) - place(b));
}

export function loadSchedule<T extends { name: string }>(
	kind: string,
	path: string,
	check?: Check<T>
): T & Located {
	const file = relative(root, path);
	let data: unknown;
	try {
		data = JSON.parse(readFileSync(path, 'utf8'));
	} catch (error) {
		throw new ScheduleError(`${file}: not valid JSON (${(error as Error).message})`);
	}
	const validate = validatorFor(kind);
	if (!validate(data)) {
		const errors = validate.errors ?? [];
		const problems = errors.map(explain).filter((problem) => problem !== null);
		if (problems.length === 0)
			problems.push(
				...errors.map((error) => `${fieldName(error.instancePath) || 'the file'}: ${error.message}`)
			);
		throw new ScheduleError(`${file}: ${[...new Set(problems)].join('; ')}`);
	}
	const schedule = data as T;
	const fail = (field: string, problem: string): never => {
		throw new ScheduleError(`${file}: ${field}: ${problem}`);
	};
	if (schedule.name !== basename(path, '.json'))
		fail('name', `"${schedule.name}" must match the file's name`);
	check?.(schedule, fail);
	return { ...schedule, file };
}
