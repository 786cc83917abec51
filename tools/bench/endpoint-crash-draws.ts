// npx tsx tools/bench/endpoint-crash-draws.ts [--seeds 10] [--from 1] [--runs 25] [--each] [mistake …]: how many
// crash-point sequences 06's held-out crash checks need. For every named wrong solution of 06 and every one held
// in reserve (grader/samples/reserve), at the seeds from --from on (1 to 10 by default) as the grader draws them
// (check k from seed + k, four checks), the sequence at which each check first fails: the observer's records
// judged as the grader judges them (judgeCrashes). Prints a line a mistake that fails any, then the latest first
// failure over all of them: the count a check plays (crashShare) wants a margin above it. Mistakes no crash check
// catches are listed once.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { workbookRoot } from '#harness/core/manifest.ts';
import type { Sequence } from '#harness/endpoint/calls.ts';
import { randomSequences } from '#harness/endpoint/sequences.ts';
import { patchedFiles, readWrongSolution, wrongSolutions } from '../../lib/wrong-solutions.ts';
import { observers } from '../../grader/inside/06-ticket-endpoint.observe.ts';
import { plain } from '../../grader/inside/plain.ts';
import { judgeCrashes } from '../../grader/checks/06-ticket-endpoint.held.ts';

const option = (name: string, fallback: number) => {
	const at = process.argv.indexOf(`--${name}`);
	return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const [seeds, from, runs, checks] = [option('seeds', 10), option('from', 1), option('runs', 25), 4];
const named = process.argv
	.slice(2)
	.filter(
		(arg, i, all) => !arg.startsWith('--') && !['--seeds', '--from', '--runs'].includes(all[i - 1] ?? '')
	);
const reserve = join(workbookRoot, 'grader', 'samples', 'reserve');
const mistakes = [
	...wrongSolutions(),
	...readdirSync(reserve)
		.filter((file) => file.endsWith('.patch'))
		.map((file) => readWrongSolution(join(reserve, file)))
].filter((wrong) => wrong.exercise === '06' && (named.length === 0 || named.includes(wrong.name)));

// A mistake's endpoint.ts in a folder that imports like the workbook (as reductions.test.ts does).
const scratch = mkdtempSync(join(tmpdir(), 'endpoint-crash-draws-'));
writeFileSync(
	join(scratch, 'package.json'),
	JSON.stringify({ type: 'module', imports: { '#harness/*': './harness/*' } })
);
symlinkSync(join(workbookRoot, 'harness'), join(scratch, 'harness'), 'dir');

const drawn = new Map<number, Sequence[]>();
const sequencesOf = (seed: number) => {
	if (!drawn.has(seed)) drawn.set(seed, fc.sample(randomSequences, { seed, numRuns: runs }));
	return drawn.get(seed)!;
};

let latest = 0;
const caught: string[] = [];
const missed: string[] = [];
try {
	for (const wrong of mistakes) {
		const folder = join(scratch, wrong.name);
		mkdirSync(folder);
		writeFileSync(join(folder, 'endpoint.ts'), patchedFiles(wrong)['endpoint.ts']!);
		const code = { 'endpoint.ts': await import(pathToFileURL(join(folder, 'endpoint.ts')).href) };
		const rows: string[] = [];
		let any = false;
		for (let seed = from; seed < from + seeds; seed++) {
			const firsts: string[] = [];
			for (let k = 0; k < checks; k++) {
				let first = 0;
				for (const [i, sequence] of sequencesOf(seed + k).entries()) {
					const observed = JSON.parse(
						JSON.stringify(plain(await observers.crashes!(code, sequence, { postgres: null })))
					);
					if (judgeCrashes(sequence, observed) !== null) {
						first = i + 1;
						break;
					}
				}
				if (first) any = true;
				latest = Math.max(latest, first);
				firsts.push(first ? String(first) : '-');
			}
			rows.push(firsts.join(','));
		}
		if (any) caught.push(`${wrong.name}: ${rows.join('  ')}`);
		else missed.push(wrong.name);
		if (process.argv.includes('--each')) console.log(`  ${wrong.name}: ${rows.join('  ')}`);
	}
} finally {
	rmSync(scratch, { recursive: true, force: true });
}
console.log(
	`first failing crash-point sequence of each of ${checks} checks (of ${runs}), seeds ${from} to ${from + seeds - 1}; - none:`
);
for (const line of caught) console.log(`  ${line}`);
console.log(`caught by no crash-point check: ${missed.join(', ') || 'none'}`);
console.log(`the latest first failure: sequence ${latest}`);
