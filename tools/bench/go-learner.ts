// npm run bench:go-learner: how long a Go learner's loop takes here, as median wall and CPU times: an edit of
// the learner file, then `go test ./exercises/NN-…` (the package and its test binary built again), each as a
// ratio to the same for a bare package of one trivial test in the same module. The aim: at most 1.2.
// Each run is a pair, the bare loop then the exercise's, and the ratio is the median of the pairs' ratios:
// on a shared machine the load drifts over the minutes a bench takes, and a pair sees the same load.
// Each exercise is timed as shipped (the stub) and solved (go/solutions/ read in its place, the loop's green
// end, where the test's own work shows). Files are read through go test -overlay; the trivial package's
// folder (go vet enters it) is made for the run and removed after it.
// An edit is a new line of code, as a learner's is: it changes the test binary, so each run builds, links and
// runs it. (A new comment would not: go test would answer the trivial test's passing result from its cache,
// and time no test at all.)
// An exercise whose test binary links net/http or pgx (06) is timed against its floor too: a trivial test that
// links just those, as much of them as a server and a pool use, and runs none of it. What a loop spends above
// the floor is the exercise's; the floor is the price of those libraries in any test.
// Prints figures; it asserts nothing. Usage: npm run bench:go-learner [-- --runs 7] [--only 03,04]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { goExercises } from '#harness/core/manifest.ts';
import { goDir, solutionsOverlay } from '../../lib/go-test.ts';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number, at least 1');
// --only 03,04: those exercises alone (by id), the others not timed.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1]!.split(',') : null;

const scratch = mkdtempSync(join(tmpdir(), 'workbook-go-bench-'));
const trivial = `package trivial\n\nimport "testing"\n\nfunc TestNothing(t *testing.T) {}\n`;

// CPU milliseconds of this process's finished children (Linux: /proc/self/stat, ticks of 1/100 s).
function childrenCpu(): number {
	const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
	return (Number(fields[13]) + Number(fields[14])) * 10;
}

type Overlay = Record<string, string>; // go test -overlay's Replace: a file read from another

// The edit of one round: a package variable set in an init function, which the linker keeps.
const edit = (round: number) =>
	`\n// edit ${round}\nvar benchEdit int\n\nfunc init() { benchEdit = ${Date.now() % 1e9} }\n`;

// One loop: the file edited, then go test on its package (other files read from elsewhere as given);
// wall and CPU milliseconds.
function loop(file: string, text: string, pkg: string, round: number, also: Overlay = {}): [number, number] {
	const edited = join(scratch, `round-${round}.go`);
	writeFileSync(edited, `${text}${edit(round)}`);
	const overlay = join(scratch, 'overlay.json');
	writeFileSync(overlay, JSON.stringify({ Replace: { ...also, [file]: edited } }));
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

type Loop = { file: string; text: string; pkg: string; also?: Overlay };
type Figures = { wall: number; cpu: number; wallRatio: number; cpuRatio: number };

const trivialDir = join(goDir, 'bench-trivial');
const bare: Loop = { file: join(trivialDir, 'trivial_test.go'), text: trivial, pkg: './bench-trivial' };
let round = 0;
const once = (it: Loop) => loop(it.file, it.text, it.pkg, round++, it.also);

// The libraries that set a floor, each with the imports and the lines that link as much of it as 06 uses.
const heavy = [
	{
		name: 'net/http',
		short: 'net/http',
		imports: ['net/http/httptest'],
		use: ['server := httptest.NewServer(nil)', '_, _ = server.Client().Get(server.URL)']
	},
	{
		name: 'github.com/jackc/pgx/v5/pgxpool',
		short: 'pgx',
		imports: ['github.com/jackc/pgx/v5/pgxpool'],
		use: ['pool, _ := pgxpool.New(t.Context(), "")', '_, _ = pool.Query(t.Context(), "")']
	}
];
const floorDir = join(goDir, 'bench-floor');

// The floor of a package's loop: a trivial test linking the heavy libraries its test binary links, or null.
function floorOf(pkg: string): { loop: Loop; names: string[] } | null {
	const listed = spawnSync('go', ['list', '-test', '-deps', pkg], { cwd: goDir, encoding: 'utf8' });
	if (listed.status !== 0) throw new Error(`go list ${pkg}:\n${listed.stderr}`);
	const deps = new Set(listed.stdout.split('\n'));
	const linked = heavy.filter((it) => deps.has(it.name));
	if (!linked.length) return null;
	const imports = ['testing', ...linked.flatMap((it) => it.imports)].map((it) => `\t"${it}"`).join('\n');
	const uses = linked
		.flatMap((it) => it.use)
		.map((line) => `\t\t${line}\n`)
		.join('');
	const text = `package floor\n\nimport (\n${imports}\n)\n\nfunc TestNothing(t *testing.T) {\n\tif t.Name() == "never" {\n${uses}\t}\n}\n`;
	const loop = { file: join(floorDir, 'floor_test.go'), text, pkg: './bench-floor' };
	return { loop, names: linked.map((it) => it.short) };
}

// runs pairs: the yardstick's loop (the bare one unless said), then this one, each after one warm-up (the
// build cache holds everything but the edited package); the medians of this loop's times and of the pairs'
// ratios.
function measure(it: Loop, yardstick: Loop = bare): Figures {
	once(yardstick);
	once(it);
	const pairs = Array.from({ length: runs }, () => [once(yardstick), once(it)] as const);
	return {
		wall: median(pairs.map(([, [wall]]) => wall)),
		cpu: median(pairs.map(([, [, cpu]]) => cpu)),
		wallRatio: median(pairs.map(([[bareWall], [wall]]) => wall / bareWall)),
		cpuRatio: median(pairs.map(([[, bareCpu], [, cpu]]) => cpu / bareCpu))
	};
}

try {
	mkdirSync(trivialDir);
	mkdirSync(floorDir);
	once(bare);
	const bareTimes = Array.from({ length: runs }, () => once(bare));
	console.log(`load average ${loadavg()[0]!.toFixed(2)}; ${runs} pairs each, medians`);
	console.log(
		`bare go test, one trivial test    ${median(bareTimes.map(([wall]) => wall)).toFixed(0)} ms wall, ${median(bareTimes.map(([, cpu]) => cpu)).toFixed(0)} ms CPU`
	);
	const said = (it: Figures) =>
		`${it.wall.toFixed(0)} ms wall (×${it.wallRatio.toFixed(2)}), ${it.cpu.toFixed(0)} ms CPU (×${it.cpuRatio.toFixed(2)})`;
	const solved = solutionsOverlay();
	for (const exercise of goExercises().filter((it) => !only || only.includes(it.id))) {
		const file = join(goDir, 'exercises', exercise.folder, exercise.goLearnerFiles[0]!);
		const pkg = `./exercises/${exercise.folder}`;
		const shipped = measure({ file, text: readFileSync(file, 'utf8'), pkg });
		const solution = measure({ file, text: readFileSync(solved[file]!, 'utf8'), pkg, also: solved });
		console.log(`go test ${pkg.padEnd(30)} shipped ${said(shipped)}; aim ×1.2`);
		console.log(`${''.padEnd(38)} solved  ${said(solution)}`);
		const floor = floorOf(pkg);
		if (!floor) continue;
		const ratio = (it: Figures) => `×${it.cpuRatio.toFixed(2)} of its CPU`;
		const against = (it: Loop) => ratio(measure(it, floor.loop));
		const shippedOnFloor = against({ file, text: readFileSync(file, 'utf8'), pkg });
		const solvedOnFloor = against({ file, text: readFileSync(solved[file]!, 'utf8'), pkg, also: solved });
		console.log(
			`${''.padEnd(38)} floor   ${said(measure(floor.loop))}: a trivial test linking ${floor.names.join(' and ')}; shipped ${shippedOnFloor}, solved ${solvedOnFloor}`
		);
	}
} finally {
	rmSync(scratch, { recursive: true, force: true });
	rmSync(trivialDir, { recursive: true, force: true });
	rmSync(floorDir, { recursive: true, force: true });
}
