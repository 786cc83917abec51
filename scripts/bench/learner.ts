// npm run bench:learner: how long the learner's loop takes on this machine, as median wall times, and each as a
// ratio to a bare Vitest run of one trivial test through npm (the least any `npm test` can cost here). The aims:
// at most 1.2 for `npm test exercises/NN`, at most 2 for `npm run progress`.
// Prints figures; it asserts nothing. Usage: npm run bench:learner [-- --runs 7]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises, workbookRoot } from '#shared/manifest.ts';
import { bin } from '../run.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');

type Measured = { label: string; times: number[]; cpu: number[]; aim?: number };

// CPU seconds of this process's finished children (Linux: /proc/self/stat, in clock ticks of 1/100 s). Under a
// loaded machine the wall time mostly measures the others; the CPU time the run itself spent holds steadier.
function childrenCpu(): number {
	try {
		const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
		return (Number(fields[13]) + Number(fields[14])) * 10;
	} catch {
		return NaN;
	}
}

// Wall time of one run, in milliseconds. The output is not shown; a crash is reported.
function once(command: string, args: string[], cwd = workbookRoot): { ms: number; cpu: number } {
	const cpuBefore = childrenCpu();
	const started = process.hrtime.bigint();
	const ran = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1' }
	});
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	if (ran.error) throw ran.error;
	return { ms, cpu: childrenCpu() - cpuBefore };
}

function measure(label: string, command: string, args: string[], cwd?: string): Measured {
	once(command, args, cwd); // A warm-up, so the figures are for the second run onwards, as a learner lives them.
	const all = Array.from({ length: runs }, () => once(command, args, cwd));
	return { label, times: all.map((r) => r.ms), cpu: all.map((r) => r.cpu) };
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
// For reference: the short report against Vitest's own on the first exercise, without npm (the reporter's cost),
// and Node starting and doing nothing.
const first = exercises()[0]!;
const direct = (reporter: string) => [
	'run',
	'--config',
	'scripts/learner/vitest.learner.config.ts',
	`--reporter=${reporter}`,
	`exercises/${first.id}`
];
measured.push(
	measure(
		`vitest, short report, exercises/${first.id}`,
		bin('vitest'),
		direct('./scripts/learner/loop-reporter.ts')
	)
);
measured.push(measure(`vitest, its default report, exercises/${first.id}`, bin('vitest'), direct('default')));
measured.push(measure('node -e 0', process.execPath, ['-e', '0']));

const load = loadavg()
	.map((n) => n.toFixed(1))
	.join(' ');
console.log(
	`median of ${runs} runs after one warm-up · ${cpus().length} CPUs, load (1, 5, 15 min) ${load} · Node ${process.version}`
);
console.log(
	'wall time, and the CPU time the run spent (its processes together), each also as a ratio to bare:'
);
const width = Math.max(...measured.map((m) => m.label.length));
const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
for (const { label, times, cpu, aim } of measured) {
	const wall = median(times) / median(yardstick.times);
	const spent = median(cpu) / median(yardstick.cpu);
	const ratios = aim
		? `  ×${wall.toFixed(2)} wall, ×${spent.toFixed(2)} cpu (aim ≤ ${aim}${wall <= aim ? '' : ', wall OVER'})`
		: '';
	console.log(`  ${label.padEnd(width)} ${ms(median(times))} wall ${ms(median(cpu))} cpu${ratios}`);
}
