// npm run bench:learner: how long the learner's loop takes on this machine, as median wall times, and each as a
// ratio to a bare Vitest run of one trivial test through npm (the least any `npm test` can cost here). The aims:
// at most 1.2 for `npm test exercises/NN`, at most 2 for `npm run progress`.
// Prints figures; it asserts nothing. Usage: npm run bench:learner [-- --runs 7]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises, workbookRoot } from '#shared/manifest.ts';
import { bin } from '../run.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');

type Measured = { label: string; times: number[]; aim?: number };

// Wall time of one run, in milliseconds. The output is not shown; a crash is reported.
function once(command: string, args: string[], cwd = workbookRoot): number {
	const started = process.hrtime.bigint();
	const ran = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1' }
	});
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	if (ran.error) throw ran.error;
	return ms;
}

function measure(label: string, command: string, args: string[], cwd?: string): Measured {
	once(command, args, cwd); // A warm-up, so the figures are for the second run onwards, as a learner lives them.
	return { label, times: Array.from({ length: runs }, () => once(command, args, cwd)) };
}

// The yardstick: a package whose `npm test` is `vitest run` on one test that checks 1 + 1, with this workbook's
// node_modules, so the same Vitest and the same Node.
function bareVitest(): { dir: string; remove: () => void } {
	const dir = mkdtempSync(join(tmpdir(), 'bare-vitest-'));
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify({ name: 'bare', private: true, type: 'module', scripts: { test: 'vitest run' } })
	);
	writeFileSync(
		join(dir, 'one.test.ts'),
		"import { expect, it } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(2));\n"
	);
	symlinkSync(join(workbookRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const median = (times: number[]) => {
	const sorted = [...times].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const measured: Measured[] = [];
const bare = bareVitest();
let yardstick: Measured;
try {
	yardstick = measure('npm test, bare Vitest, one trivial test', 'npm', ['test'], bare.dir);
} finally {
	bare.remove();
}
measured.push(yardstick);
for (const exercise of exercises()) {
	const label = `npm test exercises/${exercise.id}`;
	measured.push({ ...measure(label, 'npm', ['test', `exercises/${exercise.id}`]), aim: 1.2 });
}
measured.push({ ...measure('npm run progress', 'npm', ['run', 'progress']), aim: 2 });
// For reference: the same first exercise without npm in front, and Node starting and doing nothing.
const first = exercises()[0]!;
measured.push(
	measure(`vitest run (no npm) exercises/${first.id}`, bin('vitest'), [
		'run',
		'--project',
		'exercises',
		`exercises/${first.id}`
	])
);
measured.push(measure('node -e 0', process.execPath, ['-e', '0']));

console.log(
	`median wall time of ${runs} runs after one warm-up · ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(1)} · Node ${process.version}`
);
const width = Math.max(...measured.map((m) => m.label.length));
for (const { label, times, aim } of measured) {
	const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
	const ratio = median(times) / median(yardstick.times);
	const against = aim ? `   ×${ratio.toFixed(2)} of bare (aim ≤ ${aim}${ratio <= aim ? '' : ', OVER'})` : '';
	console.log(
		`  ${label.padEnd(width)}  ${ms(median(times))}   (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})${against}`
	);
}
