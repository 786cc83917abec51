// npm run verify: every maintainers' check in one command, ending with one line "verify: N passed, N failed".
import { basename, dirname, relative } from 'node:path';
import { exercises as manifest, onPostgres } from '#harness/core/manifest.ts';
import { schedulesDir } from '#harness/core/schedules.ts';
import { checkSchedules } from './check-schedules.ts';
import { goDir, goTest, goVersion, type GoReport } from '../lib/go-test.ts';
import { parity } from './parity.ts';
import { scheduleFiles } from '../lib/schedule-files.ts';
import { bin, run } from '../lib/run.ts';
import { vitestJson, type VitestReport } from '../lib/vitest-json.ts';
import { MissingProgram, needProgram, systemPrograms, type SystemProgram } from '../lib/packages.ts';
import { sameStoryInBoth } from './same-story.ts';
import { playWrongSolutions } from './wrong/play-wrong.ts';
import { checkBrowserJourneys } from '../form/journeys/check.ts';
import { differential } from './differential/differential.ts';
import { httpDifferential } from './differential/http.ts';
import { learnersHomes } from './homes.ts';
import { countsFrom, staleness } from './shipped.ts';
import { goEachStubToldOnce } from './go-stubs.ts';
import { goExercisesFailAsShipped, goWrongSolutionsFail, lessonGoPasses } from './go-track.ts';

// warnings are printed but fail nothing; skipped says, in one line, why a step did not run.
type Result = { passed: number; failed: number; problems: string[]; warnings?: string[]; skipped?: string };
type Step = { name: string; check: () => Promise<Result> };

// Each Vitest project, and the Go tests, run once; the steps that read them share the report.
const reports = new Map<string, Promise<VitestReport>>();
const vitestReport = (project: string) => {
	if (!reports.has(project)) reports.set(project, vitestJson(['--project', project]));
	return reports.get(project)!;
};
let goReport: Promise<GoReport> | undefined;
// 06's Go explorations play more random sequences here than a plain go test does (go/endpoint/property.go),
// 04's more made-up tab lives (go/client/failing_storage.go), and 03's and 05's properties more seeded cases
// (go/core/sizes.go). The wrong solutions play a plain go test's: each must fail the learner's loop.
const goSizes = {
	ENDPOINT_CRASH_RUNS: '100',
	ENDPOINT_RUNS: '1000',
	TAB_LIFE_RUNS: '3000',
	RACE_CASES: '300',
	OUTBOX_CASES: '150'
};
const goTests = () => (goReport ??= goTest(goDir, undefined, { env: goSizes }));

const one = (ok: boolean, problem: string): Result => ({
	passed: ok ? 1 : 0,
	failed: ok ? 0 : 1,
	problems: ok ? [] : [problem]
});

async function command(command: string, args: string[], cwd?: string): Promise<Result> {
	const ran = await run(command, args, { cwd });
	return one(ran.code === 0, ran.output.trim());
}

// Every test of one Vitest project must pass, and at least one must run.
async function allPass(project: string): Promise<Result> {
	const report = await vitestReport(project);
	const failed = report.tests.filter((test) => test.status === 'failed');
	const problems = failed.map((test) => `${relative('.', test.file)} › ${test.name}\n${test.message}`);
	if (report.code !== 0 && failed.length === 0) problems.push(`Vitest failed:\n${report.output}`);
	if (report.tests.length === 0) problems.push(`no tests ran:\n${report.output}`);
	return {
		passed: report.tests.length - failed.length,
		failed: problems.length ? Math.max(failed.length, 1) : 0,
		problems
	};
}

const exerciseOf = (file: string) => basename(dirname(file));

// An exercise that passes as shipped teaches nothing: each must have a test that fails.
async function exercisesFailAsShipped(): Promise<Result> {
	const report = await vitestReport('exercises');
	const exercises = manifest().map((exercise) => exercise.folder);
	const problems = exercises.flatMap((exercise) => {
		const tests = report.tests.filter((test) => exerciseOf(test.file) === exercise);
		if (tests.length === 0) return [`${exercise}: no test ran as shipped\n${report.output}`];
		if (tests.every((test) => test.status !== 'failed'))
			return [`${exercise} passes as shipped: it teaches nothing`];
		return [];
	});
	return { passed: exercises.length - problems.length, failed: problems.length, problems };
}

// learner/shipped/: a copy of each exercise test file and its count of tests, which every count the learner reads
// comes from, checked against the tests the solutions' run collected (no second run).
async function shippedTestsFresh(): Promise<Result> {
	const report = await vitestReport('solutions');
	const problems = staleness(countsFrom(report.tests));
	return { passed: problems.length ? 0 : 1, failed: problems.length, problems };
}

// 06 on PostgreSQL from a scratch copy in each home a learner may have (tools/homes.ts).
async function homesGreen(): Promise<Result> {
	let homes;
	try {
		homes = await learnersHomes();
	} catch (error) {
		return one(false, `the homes could not be made: ${(error as Error)?.stack ?? String(error)}`);
	}
	const problems = homes.filter((home) => !home.passed).map((home) => home.problem);
	return { passed: homes.length - problems.length, failed: problems.length, problems };
}

// Each named wrong solution must fail on the test meant to catch its mistake, saying why. A patch that no
// longer applies is one of the verdicts; anything else that stops the run is a failure to report, not a crash.
async function wrongSolutionsFail(): Promise<Result> {
	let verdicts;
	try {
		verdicts = await playWrongSolutions();
	} catch (error) {
		return one(false, `the wrong solutions could not be played: ${(error as Error)?.stack ?? String(error)}`);
	}
	const problems = verdicts.flatMap((verdict) => (verdict.problem ? [verdict.problem] : []));
	return { passed: verdicts.length - problems.length, failed: problems.length, problems };
}

// npm run mutate: every exercise's tests must kill 90% of the mutants of its solution (about half a minute).
async function mutantsKilled(): Promise<Result> {
	const ran = await run(bin('tsx'), ['tools/mutate/mutate.ts']);
	const lines = ran.output.split('\n').filter((line) => /^[✔✘] \d\d-/.test(line));
	const failedLines = lines.filter((line) => line.startsWith('✘'));
	const problems = failedLines.slice();
	if (ran.code !== 0 && failedLines.length === 0)
		problems.push(`npm run mutate failed:\n${ran.output.slice(-4000)}`);
	return { passed: lines.length - failedLines.length, failed: problems.length, problems };
}

async function schedulesLoad(): Promise<Result> {
	const { passed, failed } = await checkSchedules();
	return { passed: passed.length, failed: failed.length, problems: failed };
}

// gofmt -l lists the files it would change; there must be none.
async function gofmt(): Promise<Result> {
	const ran = await run('gofmt', ['-l', '.'], { cwd: goDir });
	const files = ran.output.trim();
	if (ran.code !== 0) return one(false, files);
	return one(!files, `not gofmt-formatted (fix with: cd go && gofmt -w .):\n${files}`);
}

// Every Go test must pass, and at least one must run. Subtests count, like Vitest's it(); parents don't.
async function goTestsPass(): Promise<Result> {
	const report = await goTests();
	const leaves = report.tests.filter((test) => test.leaf && test.status !== 'skipped');
	const failed = leaves.filter((test) => test.status === 'failed');
	// A skipped Go test is a problem too: a PostgreSQL test starts its own server or fails, never skips.
	const skipped = report.tests.filter((test) => test.status === 'skipped');
	const problems = [
		...failed.map((test) => `go/${test.name}\n${test.output.trimEnd()}`),
		...skipped.map((test) => `go/${test.name} was skipped: ${test.output.trim() || 'no reason given'}`),
		...report.problems
	];
	if (leaves.length === 0) problems.push('no Go tests ran');
	return {
		passed: leaves.length - failed.length,
		failed: problems.length ? Math.max(failed.length + skipped.length, 1) : 0,
		problems
	};
}

// Every schedule file is played by TypeScript and by Go, in the same roles, or by neither side's tests.
async function sameSchedulesInBoth(): Promise<Result> {
	const ran = (tests: { status: string; plays?: string | string[] }[]) =>
		tests.filter((test) => test.status !== 'skipped').flatMap((test) => test.plays ?? []);
	const [solutions, go] = await Promise.all([vitestReport('solutions'), goTests()]);
	const result = parity(scheduleFiles(schedulesDir), ran(solutions.tests), ran(go.tests));
	return {
		passed: result.checked.length,
		failed: result.problems.length,
		problems: result.problems,
		warnings: result.warnings
	};
}

// Made-up cases from the day's seed, played by both languages' solutions: every case must get one answer.
// One pass for the whole run (its cases are many), one failure for each case where the answers differ.
async function sameAnswersInBoth(): Promise<Result> {
	const { problems } = await differential();
	return { passed: problems.length ? 0 : 1, failed: problems.length, problems: problems.slice(0, 10) };
}

// POST /api/tickets over real HTTP, the TypeScript solution's and Go's, each on its own PostgreSQL: every kind
// of request once, then a fixed number of sequences from the day's seed. One failure per sequence that differs.
async function sameAnswersOverHttp(): Promise<Result> {
	try {
		const { sequences, problems } = await httpDifferential();
		return { passed: sequences - problems.length, failed: problems.length, problems: problems.slice(0, 5) };
	} catch (error) {
		return one(false, `the HTTP differential could not run: ${(error as Error)?.stack ?? String(error)}`);
	}
}

// The Go steps. Without go on the PATH they are skipped in one line, except on CI, where that fails.
async function goSteps(): Promise<Step[]> {
	const version = await goVersion();
	if (version)
		return [
			{ name: 'Go formatting (gofmt -l)', check: gofmt },
			// Without -composites: the lesson's Go writes Outcome{"conflict", 0}, an unkeyed literal of go/core's type.
			// With -tags=postgres: the PostgreSQL plays of go/race and go/outbox are built only with it.
			{
				name: 'Go vet (go vet -composites=false -tags=postgres ./...)',
				check: () => command('go', ['vet', '-composites=false', '-tags=postgres', './...'], goDir)
			},
			{
				name: 'the Go solutions pass every test (go test ./..., go/solutions/ read in place of the stubs)',
				check: goTestsPass
			},
			{
				name: "every Go exercise fails as shipped, at a stub, and reset's copies are the stubs",
				check: goExercisesFailAsShipped
			},
			{
				name: 'each Go stub alone in its solution tells its story once, and no panic',
				check: goEachStubToldOnce
			},
			{ name: "the lesson's section 02 Go, pasted as it is, passes 02's Go tests", check: lessonGoPasses },
			{
				name: 'every Go wrong solution fails where it should (go/solutions/wrong)',
				check: goWrongSolutionsFail
			},
			{ name: 'TypeScript and Go play the same schedules', check: sameSchedulesInBoth },
			{
				name: 'the same mistake tells the same story in TypeScript and Go (one per exercise)',
				check: sameStoryInBoth
			},
			{ name: 'TypeScript and Go give the same answers (differential check)', check: sameAnswersInBoth },
			{
				name: 'TypeScript and Go answer alike over HTTP (npx tsx tools/differential/http.ts)',
				check: sameAnswersOverHttp
			}
		];
	const why =
		'`go` is not installed, so gofmt, go vet, go test and the TypeScript–Go parity check did not run';
	if (process.env.CI === 'true')
		return [{ name: 'Go', check: async () => one(false, `${why}; CI=true needs them: install Go`) }];
	return [{ name: 'Go', check: async () => ({ passed: 0, failed: 0, problems: [], skipped: why }) }];
}

// The browser tests and the grader's sandbox need Debian's chromium, bubblewrap and strace: installed here when missing.
async function systemProgramsPresent(): Promise<Result> {
	const problems: string[] = [];
	for (const program of Object.keys(systemPrograms) as SystemProgram[]) {
		try {
			needProgram(program);
		} catch (error) {
			if (!(error instanceof MissingProgram)) throw error;
			problems.push(error.message);
		}
	}
	return { passed: Object.keys(systemPrograms).length - problems.length, failed: problems.length, problems };
}

// "03 and 05": the exercises the manifest plays on PostgreSQL as well as on the model.
const alsoOnPostgres = onPostgres('also')
	.map((exercise) => exercise.id)
	.join(' and ');

const steps: Step[] = [
	{ name: 'system programs (chromium, bwrap, strace), installed when missing', check: systemProgramsPresent },
	{
		name: 'formatting (prettier --check)',
		check: () => command(bin('prettier'), ['--check', '--log-level=warn', '.'])
	},
	{ name: 'types (tsc --noEmit)', check: () => command(bin('tsc'), ['--noEmit', '-p', '.']) },
	{ name: 'schedules match their schemas', check: schedulesLoad },
	{ name: 'the solutions pass every test', check: () => allPass('solutions') },
	{ name: 'the harness passes its own tests', check: () => allPass('harness') },
	{
		name: `${alsoOnPostgres} on PostgreSQL, and the model checked against it`,
		check: () => allPass('postgres')
	},
	{ name: 'every exercise fails as shipped', check: exercisesFailAsShipped },
	{ name: "the shipped tests' copies and counts are fresh (npm run shipped)", check: shippedTestsFresh },
	{
		name: 'where learners put it: 06 from a 0700 home (and, as root, as a useradd user), progress with no /dev/shm',
		check: homesGreen
	},
	{ name: 'every wrong solution fails where it should', check: wrongSolutionsFail },
	{
		name: "04's form in Chromium: the solution passes, the stub and four wrong solutions fail (npm run browser -- 04)",
		check: checkBrowserJourneys
	},
	{ name: 'mutation testing kills 90% per exercise (npm run mutate)', check: mutantsKilled },
	...(await goSteps())
];

let passed = 0;
let failed = 0;
for (const step of steps) {
	const started = Date.now();
	const result = await step.check();
	passed += result.passed;
	failed += result.failed;
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.skipped) {
		console.log(`- ${step.name}: skipped: ${result.skipped} (CI=true makes this a failure)`);
		continue;
	}
	console.log(
		`${result.failed ? '✘' : '✔'} ${step.name}: ${result.passed} passed, ${result.failed} failed (${seconds}s)`
	);
	for (const warning of result.warnings ?? []) console.log(`    ⚠ ${warning}`);
	for (const problem of result.problems) console.log(problem.replace(/^/gm, '    '));
}
console.log(`verify: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
