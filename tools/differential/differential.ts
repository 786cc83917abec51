// The differential check: TypeScript and Go must give one answer for one input, on inputs nobody wrote.
//
//   npx tsx tools/differential/differential.ts [--seed N] [--keep]
//
// Cases are made up from a seed (cases.ts), written once as JSON, played by the TypeScript solutions
// (play-ts.ts) and by the Go solutions (go/cmd/differential), and the two answers are compared field by
// field. Any difference fails, printing the case, both answers and the seed, so `--seed N` plays it again.
// npm run verify runs it with a seed of its own each day; --keep leaves the cases file in place.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { schedulesDir } from '#harness/core/schedules.ts';
import { goDir } from '../../lib/go-test.ts';
import { run } from '../../lib/run.ts';
import { generateCases, type Case, type ScheduleKind, type ScheduleSource } from './cases.ts';
import { playTs } from './play-ts.ts';
import { isMain } from '../../lib/main-module.ts';

// Fields that explain an answer without being part of it: a loader's words may differ, its verdict may not.
const notCompared = new Set(['said']);

// Stored texts are compared by what they say: the same JSON, whatever its spacing or field order.
function normalized(value: unknown, field = ''): unknown {
	if (field === 'contents' && value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value as Record<string, string>)
				.sort(([a], [b]) => (a < b ? -1 : 1))
				.map(([name, text]) => {
					try {
						return [name, { json: normalized(JSON.parse(text)) }];
					} catch {
						return [name, { text }];
					}
				})
		);
	}
	if (Array.isArray(value)) return value.map((item) => normalized(item));
	if (value !== null && typeof value === 'object')
		return Object.fromEntries(
			Object.entries(value)
				.filter(([name]) => !notCompared.has(name))
				.sort(([a], [b]) => (a < b ? -1 : 1))
				.map(([name, inner]) => [name, normalized(inner, name)])
		);
	return value;
}

// The first field where two answers differ, as a path ("answers[2].status"), or null when they agree.
export function firstDifference(ts: unknown, go: unknown, at = ''): string | null {
	if (Array.isArray(ts) && Array.isArray(go)) {
		for (let i = 0; i < Math.max(ts.length, go.length); i++) {
			const inner = firstDifference(ts[i], go[i], `${at}[${i}]`);
			if (inner !== null) return inner;
		}
		return null;
	}
	const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
	if (isObject(ts) && isObject(go)) {
		const names = new Set([...Object.keys(ts as object), ...Object.keys(go as object)]);
		for (const name of [...names].sort()) {
			const inner = firstDifference(
				(ts as Record<string, unknown>)[name],
				(go as Record<string, unknown>)[name],
				at ? `${at}.${name}` : name
			);
			if (inner !== null) return inner;
		}
		return null;
	}
	return JSON.stringify(ts) === JSON.stringify(go) ? null : at || 'the answer';
}

// One line of trouble per case where the answers differ: the case, both answers, the field, and the seed.
export function compareAnswers(cases: Case[], ts: unknown[], go: unknown[], seed: number): string[] {
	const problems: string[] = [];
	if (ts.length !== cases.length || go.length !== cases.length)
		problems.push(
			`${cases.length} cases, but TypeScript answered ${ts.length} and Go ${go.length} (seed ${seed})`
		);
	cases.forEach((c, i) => {
		const [a, b] = [normalized(ts[i]), normalized(go[i])];
		const field = firstDifference(a, b);
		if (field === null) return;
		const what = c.kind === 'schedule' ? ` (schedules/${c.schedule}/${c.name}.json with ${c.changed})` : '';
		problems.push(
			[
				`case ${i + 1}, ${c.kind}${what}: TypeScript and Go differ at ${field} (seed ${seed}; again with: npx tsx tools/differential/differential.ts --seed ${seed})`,
				`  case:       ${JSON.stringify(c)}`,
				`  TypeScript: ${JSON.stringify(ts[i])}`,
				`  Go:         ${JSON.stringify(go[i])}`
			].join('\n')
		);
	});
	return problems;
}

// Every schedule on disk, as the material the schedule cases change one field of.
export function scheduleSources(dir = schedulesDir): ScheduleSource[] {
	const kinds: ScheduleKind[] = ['handler', 'race', 'outbox', 'client'];
	return kinds.flatMap((schedule) =>
		readdirSync(join(dir, schedule))
			.filter((file) => file.endsWith('.json'))
			.sort()
			.map((file) => ({
				schedule,
				name: file.replace(/\.json$/, ''),
				data: JSON.parse(readFileSync(join(dir, schedule, file), 'utf8')) as unknown
			}))
	);
}

export type Differential = { seed: number; cases: number; problems: string[] };

// A seed that changes once a day: verify explores new cases each day, and a failure can be played again.
export const seedOfTheDay = () => Number(new Date().toISOString().slice(0, 10).replaceAll('-', ''));

export async function differential(seed = seedOfTheDay(), keep = false): Promise<Differential> {
	const { cases } = generateCases(seed, scheduleSources());
	const dir = mkdtempSync(join(tmpdir(), 'differential-'));
	const file = join(dir, 'cases.json');
	try {
		writeFileSync(file, JSON.stringify({ seed, cases }));
		const ts = playTs(cases);
		const ran = await run('go', ['run', './cmd/differential', file], { cwd: goDir, timeoutMs: 300_000 });
		if (ran.code !== 0)
			return {
				seed,
				cases: cases.length,
				problems: [`go run ./cmd/differential failed (seed ${seed}):\n${ran.output}`]
			};
		let go: unknown[];
		try {
			go = JSON.parse(ran.output.slice(ran.output.indexOf('['))) as unknown[];
		} catch (error) {
			return {
				seed,
				cases: cases.length,
				problems: [`Go's answers are not JSON (${(error as Error).message}):\n${ran.output.slice(0, 2000)}`]
			};
		}
		return { seed, cases: cases.length, problems: compareAnswers(cases, ts, go, seed) };
	} finally {
		if (keep) console.log(`cases kept in ${file}`);
		else rmSync(dir, { recursive: true, force: true });
	}
}

if (isMain(import.meta.url)) {
	const { values } = parseArgs({ options: { seed: { type: 'string' }, keep: { type: 'boolean' } } });
	const result = await differential(values.seed ? Number(values.seed) : undefined, values.keep);
	for (const problem of result.problems.slice(0, 20)) console.log(problem);
	if (result.problems.length > 20) console.log(`… and ${result.problems.length - 20} more`);
	console.log(
		`differential: ${result.cases} cases, seed ${result.seed}: ${result.problems.length ? `${result.problems.length} differ` : 'TypeScript and Go agree on every one'}`
	);
	process.exitCode = result.problems.length ? 1 : 0;
}
