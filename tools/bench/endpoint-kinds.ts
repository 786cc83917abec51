// npx tsx tools/bench/endpoint-kinds.ts [--rounds 3] [--only endpoint,webhooks]: where one run of exercise 06 spends its CPU, by kind of
// input: the reference solution played through 06's observers in this process (no sandbox), with the grader's
// inputs (seed 1, four held-out checks of 25), on a run's own PostgreSQL cluster as the grader makes it. Prints,
// for each observer and each check, the plays, this process's CPU (process.cpuUsage() around it) and the bytes
// of what was observed, then the totals. A round after the first (the imports warm) is what a run pays; run it
// with node --cpu-prof (NODE_OPTIONS) to see inside each kind.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exercises } from '#harness/core/manifest.ts';
import { root } from '../../grader/sandbox/paths.ts';
import { GradingPostgres } from '../../grader/sandbox/postgres.ts';
import type { Observers } from '../../grader/inside/observer.ts';
import { casesOf, loadProbe } from '../../grader/trusted/probe.ts';
import { plain } from '../../grader/inside/plain.ts';

const at = process.argv.indexOf('--rounds');
const rounds = at > 0 ? Number(process.argv[at + 1]) : 3;
const only = process.argv.indexOf('--only');
const kinds = only > 0 ? process.argv[only + 1]!.split(',') : null;
const exercise = exercises().find((e) => e.id === '06')!;
const checks = (await loadProbe(exercise))!
	.probe({ seed: 1, checks: 4, runs: 25 })
	.filter((check) => !kinds || kinds.includes(check.observer))
	.map((check) => ({ ...check, cases: casesOf(check) }));
const { observers } = (await import(
	pathToFileURL(join(root, 'grader', 'inside', `${exercise.folder}.observe.ts`)).href
)) as { observers: Observers };
const code = {
	'endpoint.ts': await import(pathToFileURL(join(root, 'solutions', exercise.folder, 'endpoint.ts')).href)
};
const cpu = () => {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1e6;
};

const databases = new GradingPostgres();
try {
	for (let round = 1; round <= rounds; round++) {
		const database = await databases.runDatabase();
		const byKind = new Map<string, { plays: number; cpu: number; copy: number; bytes: number }>();
		try {
			const run = { postgres: database.job };
			for (const check of checks) {
				const kind = `${check.observer}${check.heldOut ? ' (held out)' : ''}`;
				const sum = byKind.get(kind) ?? { plays: 0, cpu: 0, copy: 0, bytes: 0 };
				for (const input of check.cases) {
					const begun = cpu();
					const observed = await observers[check.observer]!(code, input, run);
					const played = cpu();
					const text = JSON.stringify(plain(observed));
					sum.copy += cpu() - played;
					sum.cpu += played - begun;
					sum.bytes += text.length;
					sum.plays++;
				}
				byKind.set(kind, sum);
			}
		} finally {
			await database.drop();
		}
		let total = 0;
		console.log(`round ${round}:`);
		for (const [kind, { plays, cpu, copy, bytes }] of byKind) {
			total += cpu + copy;
			console.log(
				`  ${kind.padEnd(22)} ${String(plays).padStart(4)} plays  ${cpu.toFixed(3)} s played  ${copy.toFixed(3)} s copied  ${(bytes / 1e6).toFixed(2)} MB`
			);
		}
		console.log(`  all                    ${total.toFixed(3)} s`);
	}
} finally {
	await databases.stop();
}
