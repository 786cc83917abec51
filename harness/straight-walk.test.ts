// The rules of the house, as a map of who may import whom. A schedule goes file → loader → player → judge →
// words, and no step calls back up: words import only core and their kind's model; the database, the scheduler
// and PostgreSQL import only core and each other; a judge calls no player; and a kind imports another
// kind only where it plays that kind's schedules. Type-only imports are free: a type calls nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const harness = dirname(fileURLToPath(import.meta.url));

type Edge = { from: string; to: string; typeOnly: boolean };

// Every import and re-export of a harness file by another (tests left out: they stand above the walk).
function edges(): Edge[] {
	const files = readdirSync(harness, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.includes('validators'))
		.map((file) => file.replaceAll('\\', '/'));
	return files.flatMap((from) => {
		const text = readFileSync(join(harness, from), 'utf8');
		const found = [
			...text.matchAll(/^(?:import|export)(\s+type)?\b[^;]*?\bfrom\s+'(\.[^']+)'/gms),
			...text.matchAll(/\bimport\((\s*)'(\.[^']+)'\)/g)
		];
		return found.map(([, type, path]) => ({
			from,
			to: relative(harness, resolve(harness, dirname(from), path!)).replaceAll('\\', '/'),
			typeOnly: Boolean(type?.trim())
		}));
	});
}

const room = (file: string) => file.split('/')[0]!;
const core = ['core'];
const below = ['database', 'scheduler', 'postgres'];
const isWords = (file: string) => /(^|\/)words\.ts$/.test(file) || file === 'core/report.ts';
const isModel = (file: string) => /(^|\/)model\.ts$/.test(file);
// Where one kind plays another's schedules: the race, the outbox and 06's webhooks play the handler schedules,
// 06 plays 04's journeys over HTTP, and 04's fake endpoint keeps 06's contract.
const plays: Record<string, (to: string) => boolean> = {
	race: (to) => room(to) === 'handler',
	outbox: (to) => room(to) === 'handler',
	endpoint: (to) => room(to) === 'handler' || room(to) === 'client',
	client: (to) => to === 'endpoint/contract.ts'
};

// Why an edge breaks the rules, or null.
function broken({ from, to, typeOnly }: Edge): string | null {
	const [a, b] = [room(from), room(to)];
	if (a === 'core' && b !== 'core') return 'core imports only core';
	if (below.includes(a) && ![...core, ...below].includes(b))
		return 'the database, the scheduler and PostgreSQL import only core and each other';
	if (below.includes(a) && isWords(to) && from !== 'postgres/differential.ts')
		return 'the database, the scheduler and PostgreSQL tell their traces without the words of the kinds';
	if (typeOnly) return null;
	if (isWords(from) && !(b === 'core' || (b === a && isModel(to))))
		return 'words import only core and their kind model';
	if (from.endsWith('/judge.ts') && to.endsWith('/play.ts')) return 'a judge calls no player';
	if (from.endsWith('/schedules.ts') && /\/(play|judge|words)\.ts$/.test(to))
		return 'a loader calls no player, judge or words';
	if (![a, b].some((r) => [...core, ...below].includes(r)) && a !== b && !plays[a]?.(to))
		return `${a} does not play ${b}'s schedules`;
	return null;
}

describe('the straight walk', () => {
	it('finds the imports it checks', () => {
		expect(edges().some((edge) => edge.from === 'handler/play.ts' && edge.to === 'core/words.ts')).toBe(true);
	});
	it('no step calls back up', () => {
		const problems = edges().flatMap((edge) => {
			const why = broken(edge);
			return why ? [`${edge.from} → ${edge.to}: ${why}`] : [];
		});
		expect(problems).toEqual([]);
	});
});
