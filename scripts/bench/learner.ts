// npm run bench:learner: how long the learner's loop takes on this machine, as median wall times.
// Prints figures; it asserts nothing. Usage: npx tsx scripts/bench/learner.ts [--runs 7]
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { exercises, workbookRoot } from '#shared/manifest.ts';
import { bin } from '../run.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');

type Measured = { label: string; times: number[] };

// Wall time of one run, in milliseconds. The output is not shown; a crash is reported.
function once(command: string, args: string[]): number {
	const started = process.hrtime.bigint();
	const ran = spawnSync(command, args, {
		cwd: workbookRoot,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1' }
	});
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	if (ran.error) throw ran.error;
	return ms;
}

function measure(label: string, command: string, args: string[]): Measured {
	once(command, args); // A warm-up, so the figures are for the second run onwards, as a learner lives them.
	return { label, times: Array.from({ length: runs }, () => once(command, args)) };
}

const median = (times: number[]) => {
	const sorted = [...times].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const measured: Measured[] = [];
for (const exercise of exercises()) {
	measured.push(measure(`npm test exercises/${exercise.id}`, 'npm', ['test', `exercises/${exercise.id}`]));
}
measured.push(measure('npm run progress', 'npm', ['run', 'progress']));
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
for (const { label, times } of measured) {
	const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
	console.log(
		`  ${label.padEnd(width)}  ${ms(median(times))}   (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))})`
	);
}
