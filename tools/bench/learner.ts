// npm run bench:learner: how long the learner's loop takes on this machine, as median wall times, and each as a
// ratio to a bare Vitest run of one trivial test through npm (the least any `npm test` can cost here). The aims:
// at most 1.2 for `npm test exercises/NN`, at most 2 for `npm run progress`.
// Prints figures; it asserts nothing. Usage: npm run bench:learner [-- --runs 7] [--pair [config]]
// --pair runs each exercise and progress a second time with the harness through Vitest's module runner
// (LEARNER_NATIVE_HARNESS=0, as before learner/native-harness.ts), in the same rounds, and prints the ratios;
// --pair config, a second time with the config bundled by Vite at every run (LEARNER_BUILT_CONFIG=0, as before
// learner/built-config.js).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');
const pairAt = process.argv.indexOf('--pair');
const twins = {
	harness: { env: { LEARNER_NATIVE_HARNESS: '0' }, label: 'harness through Vitest', short: 'native harness' },
	config: { env: { LEARNER_BUILT_CONFIG: '0' }, label: 'config bundled by Vite', short: 'bundled config' }
};
const pair = pairAt < 0 ? null : process.argv[pairAt + 1] === 'config' ? twins.config : twins.harness;

type Measured = { label: string; times: number[]; cpu: number[]; aim?: number; pairedWith?: string };

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
function once(c: Command): { ms: number; cpu: number } {
	const cpuBefore = childrenCpu();
	const started = process.hrtime.bigint();
	const ran = spawnSync(c.command, c.args, {
		cwd: c.cwd ?? workbookRoot,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1', ...c.env }
	});
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	if (ran.error) throw ran.error;
	return { ms, cpu: childrenCpu() - cpuBefore };
}

type Command = {
	label: string;
	command: string;
	args: string[];
	cwd?: string;
	env?: Record<string, string>;
	aim?: number;
	pairedWith?: string;
};

// Every command once as a warm-up, so the figures are for the second run onwards, as a learner lives them; then
// `runs` rounds of every command in turn, so a machine whose load comes and goes weighs on them all alike.
function measureAll(commands: Command[]): Measured[] {
	for (const c of commands) once(c);
	const results = commands.map(() => [] as { ms: number; cpu: number }[]);
	for (let round = 0; round < runs; round++) commands.forEach((c, i) => results[i]!.push(once(c)));
	return commands.map((c, i) => ({
		label: c.label,
		times: results[i]!.map((r) => r.ms),
		cpu: results[i]!.map((r) => r.cpu),
		...(c.aim ? { aim: c.aim } : {}),
		...(c.pairedWith ? { pairedWith: c.pairedWith } : {})
	}));
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

const bare = bareVitest();
const first = exercises()[0]!;
// The short report against Vitest's own on the first exercise, without npm: the reporter's cost. Both as npm test
// starts Vitest (learner/npm-test.js: in its process, the short report built by the learner's config).
const direct = (...more: string[]) => ['learner/npm-test.js', `exercises/${first.id}`, ...more];
// A learner's command, and with --pair its twin (the harness through Vitest's module runner, or the config bundled).
const learnerCommand = (label: string, args: string[], aim: number): Command[] => [
	{ label, command: 'npm', args, aim },
	...(pair
		? [
				{
					label: `${label}, ${pair.label}`,
					command: 'npm',
					args,
					env: pair.env,
					pairedWith: label
				}
			]
		: [])
];
let measured: Measured[];
try {
	measured = measureAll([
		{ label: 'npm test, bare Vitest, one trivial test', command: 'npm', args: ['test'], cwd: bare.dir },
		...exercises().flatMap((e) =>
			learnerCommand(`npm test exercises/${e.id}`, ['test', `exercises/${e.id}`], 1.2)
		),
		...learnerCommand('npm run progress', ['run', 'progress'], 2),
		{
			label: `vitest, short report, exercises/${first.id}`,
			command: process.execPath,
			args: direct()
		},
		{
			label: `vitest, its default report, exercises/${first.id}`,
			command: process.execPath,
			args: direct('--all')
		},
		{ label: 'node -e 0', command: process.execPath, args: ['-e', '0'] }
	]);
} finally {
	bare.remove();
}
const yardstick = measured[0]!;

const load = loadavg()
	.map((n) => n.toFixed(1))
	.join(' ');
console.log(
	`median of ${runs} rounds after one warm-up · ${cpus().length} CPUs, load (1, 5, 15 min) ${load} · Node ${process.version}`
);
console.log(
	'wall time, and the CPU time the run spent (its processes together), each also as a ratio to bare:'
);
const width = Math.max(...measured.map((m) => m.label.length));
const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
for (const { label, times, cpu, aim, pairedWith } of measured) {
	const wall = median(times) / median(yardstick.times);
	const spent = median(cpu) / median(yardstick.cpu);
	const twin = measured.find((m) => m.label === pairedWith);
	const ratios = aim
		? `  ×${wall.toFixed(2)} wall, ×${spent.toFixed(2)} cpu (aim ≤ ${aim}${wall <= aim ? '' : ', wall OVER'})`
		: twin
			? `  ×${wall.toFixed(2)} wall, ×${spent.toFixed(2)} cpu; ${pair?.short}/this: ×${(median(twin.cpu) / median(cpu)).toFixed(2)} cpu`
			: '';
	console.log(`  ${label.padEnd(width)} ${ms(median(times))} wall ${ms(median(cpu))} cpu${ratios}`);
}
