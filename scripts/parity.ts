// TypeScript and Go must play the same schedules: every file under schedules/<kind>/, in the same roles.
// Each side says what a test plays: Vitest tests through their meta (exercises/shared/plays.ts), Go tests
// through a "plays …" log line (go/schedules.Playing). This compares the two lists with the files.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Kinds whose Go side is still to come. verify warns about each one it finds on disk, and checks
// nothing else about it. Take a kind off this list in the same commit that adds its Go side.
export const goSideToCome: readonly string[] = ['race', 'outbox'];

export type Parity = { checked: string[]; problems: string[]; warnings: string[] };

// Every schedule on disk, as "kind/name".
export function scheduleFiles(schedulesDir: string): string[] {
	return readdirSync(schedulesDir)
		.filter((kind) => kind !== 'schema' && statSync(join(schedulesDir, kind)).isDirectory())
		.sort()
		.flatMap((kind) =>
			readdirSync(join(schedulesDir, kind))
				.filter((file) => file.endsWith('.json'))
				.sort()
				.map((file) => `${kind}/${file.replace(/\.json$/, '')}`)
		);
}

// "handler/one-delivery as receipt-in-commit" → ["handler/one-delivery", "receipt-in-commit"].
function split(played: string): [string, string] {
	const [schedule, as = ''] = played.split(' as ');
	return [schedule!, as];
}

function roles(played: Iterable<string>): Map<string, Set<string>> {
	const bySchedule = new Map<string, Set<string>>();
	for (const entry of played) {
		const [schedule, as] = split(entry);
		bySchedule.set(schedule, (bySchedule.get(schedule) ?? new Set()).add(as));
	}
	return bySchedule;
}

const said = (schedule: string, as: string) => (as ? `${schedule} as ${as}` : schedule);

export function parity(
	files: string[],
	typescript: Iterable<string>,
	go: Iterable<string>,
	toCome: readonly string[] = goSideToCome
): Parity {
	const ts = roles(typescript);
	const gos = roles(go);
	const checked: string[] = [];
	const problems: string[] = [];
	const warnings: string[] = [];
	const kindOf = (schedule: string) => schedule.split('/')[0]!;
	for (const kind of toCome) {
		const waiting = files.filter((file) => kindOf(file) === kind);
		if (waiting.length === 0) warnings.push(`${kind}: Go side still to come (no schedules on disk yet)`);
		else if (waiting.every((file) => gos.has(file)))
			problems.push(`${kind}: Go plays all its schedules now; take it off goSideToCome in scripts/parity.ts`);
		else
			warnings.push(
				`${kind}: Go side still to come (${waiting.length} schedule${waiting.length === 1 ? '' : 's'} not yet played by Go)`
			);
	}
	for (const file of files) {
		if (toCome.includes(kindOf(file))) continue;
		const inTs = ts.get(file) ?? new Set<string>();
		const inGo = gos.get(file) ?? new Set<string>();
		if (inTs.size === 0 && inGo.size === 0) {
			problems.push(`${file}: played by neither TypeScript nor Go`);
			continue;
		}
		const onlyTs = [...inTs].filter((as) => !inGo.has(as));
		const onlyGo = [...inGo].filter((as) => !inTs.has(as));
		for (const as of onlyTs) problems.push(`${said(file, as)}: played by TypeScript but not by Go`);
		for (const as of onlyGo) problems.push(`${said(file, as)}: played by Go but not by TypeScript`);
		if (onlyTs.length === 0 && onlyGo.length === 0) checked.push(file);
	}
	const known = new Set(files);
	for (const [side, plays] of [
		['TypeScript', ts],
		['Go', gos]
	] as const) {
		for (const schedule of plays.keys())
			if (!known.has(schedule)) problems.push(`${side} says it plays ${schedule}, but there is no such file`);
	}
	return { checked, problems, warnings };
}
