// TypeScript and Go must play the same schedules: every file under schedules/<kind>/, in the same roles.
// Each side says what a test plays: Vitest tests through their meta (harness/core/plays.ts), Go tests
// through a "plays …" log line (go/schedules.Playing). This compares the two lists with the files.

// Kinds that one side, Go or TypeScript, does not play yet. verify warns about each one, saying how much
// each side plays, and checks nothing else about it. Take a kind off this list in the same commit that
// makes both sides play all of it: verify fails until then, so the list can't go stale.
export const sideToCome: readonly string[] = [];

export type Parity = { checked: string[]; problems: string[]; warnings: string[] };

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
	toCome: readonly string[] = sideToCome
): Parity {
	const ts = roles(typescript);
	const gos = roles(go);
	const checked: string[] = [];
	const problems: string[] = [];
	const warnings: string[] = [];
	const kindOf = (schedule: string) => schedule.split('/')[0]!;
	for (const kind of toCome) {
		const waiting = files.filter((file) => kindOf(file) === kind);
		const count = (side: Map<string, Set<string>>) => waiting.filter((file) => side.has(file)).length;
		const [inTs, inGo] = [count(ts), count(gos)];
		if (waiting.length === 0)
			warnings.push(`${kind}: still to come on both sides (no schedules on disk yet)`);
		else if (inTs === waiting.length && inGo === waiting.length)
			problems.push(
				`${kind}: both sides play all its schedules now; take it off sideToCome in tools/parity.ts`
			);
		else {
			const missing = [inTs < waiting.length && 'TypeScript', inGo < waiting.length && 'Go'].filter(Boolean);
			warnings.push(
				`${kind}: ${missing.join(' and ')} side still to come (of ${waiting.length} schedules, TypeScript plays ${inTs}, Go ${inGo})`
			);
		}
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
