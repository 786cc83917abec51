// npm run bench:go-learner: how long a Go learner's loop takes here, as median wall and CPU times: an edit of
// the learner file, then `go test ./exercises/NN-…` (the package and its test binary built again), each as a
// ratio to the same for a bare package of one trivial test in the same module. The aim: at most 1.2.
// Each edit is a new comment line, read through go test -overlay; the trivial package's folder (go vet enters
// it) is made for the run and removed after it.
// Prints figures; it asserts nothing. Usage: npm run bench:go-learner [-- --runs 7]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { goExercises } from '#harness/core/manifest.ts';
import { goDir } from '../../lib/go-test.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');

const scratch = mkdtempSync(join(tmpdir(), 'workbook-go-bench-'));
const trivial = `package trivial\n\nimport "testing"\n\nfunc TestNothing(t *testing.T) {}\n`;

// CPU milliseconds of this process's finished children (Linux: /proc/self/stat, ticks of 1/100 s).
function childrenCpu(): number {
	const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
	return (Number(fields[13]) + Number(fields[14])) * 10;
}

// One loop: the file edited (a new last line), then go test on its package; wall and CPU milliseconds.
function loop(file: string, text: string, pkg: string, round: number): [number, number] {
	const edited = join(scratch, `round-${round}.go`);
	writeFileSync(edited, `${text}\n// edit ${round} ${Date.now()}\n`);
	const overlay = join(scratch, 'overlay.json');
	writeFileSync(overlay, JSON.stringify({ Replace: { [file]: edited } }));
	const cpu = childrenCpu();
	const started = performance.now();
	const ran = spawnSync('go', ['test', `-overlay=${overlay}`, pkg], { cwd: goDir, encoding: 'utf8' });
	const wall = performance.now() - started;
	if (ran.error) throw ran.error;
	if (ran.status !== 0 && !ran.stdout.includes('--- FAIL'))
		throw new Error(`go test ${pkg} did not run:\n${ran.stdout}${ran.stderr}`);
	return [wall, childrenCpu() - cpu];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function measure(file: string, text: string, pkg: string): { wall: number; cpu: number } {
	loop(file, text, pkg, -1); // warm: the build cache holds everything but the edited package
	const times = Array.from({ length: runs }, (_, round) => loop(file, text, pkg, round));
	return { wall: median(times.map(([wall]) => wall)), cpu: median(times.map(([, cpu]) => cpu)) };
}

const trivialDir = join(goDir, 'bench-trivial');
try {
	mkdirSync(trivialDir);
	const bare = measure(join(trivialDir, 'trivial_test.go'), trivial, './bench-trivial');
	console.log(`load average ${loadavg()[0]!.toFixed(2)}; ${runs} runs each, medians`);
	console.log(
		`bare go test, one trivial test    ${bare.wall.toFixed(0)} ms wall, ${bare.cpu.toFixed(0)} ms CPU`
	);
	for (const exercise of goExercises()) {
		const file = join(goDir, 'exercises', exercise.folder, exercise.goLearnerFiles[0]!);
		const it = measure(file, readFileSync(file, 'utf8'), `./exercises/${exercise.folder}`);
		const ratio = (it.wall / bare.wall).toFixed(2);
		const cpuRatio = (it.cpu / bare.cpu).toFixed(2);
		console.log(
			`go test ./exercises/${exercise.folder.padEnd(18)} ${it.wall.toFixed(0)} ms wall (×${ratio}), ${it.cpu.toFixed(0)} ms CPU (×${cpuRatio}); aim ×1.2`
		);
	}
} finally {
	rmSync(scratch, { recursive: true, force: true });
	rmSync(trivialDir, { recursive: true, force: true });
}
