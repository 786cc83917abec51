// npm run verify: every maintainers' check in one command, ending with one line "verify: N passed, N failed".
import { readdirSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { checkSchedules } from './check-schedules.ts';
import { bin, run } from './run.ts';
import { vitestJson } from './vitest-json.ts';
import { playWrongSolutions } from './wrong/play-wrong.ts';

type Result = { passed: number; failed: number; problems: string[] };
type Step = { name: string; check: () => Promise<Result> };

const one = (ok: boolean, problem: string): Result => ({
	passed: ok ? 1 : 0,
	failed: ok ? 0 : 1,
	problems: ok ? [] : [problem]
});

async function command(command: string, args: string[]): Promise<Result> {
	const ran = await run(command, args);
	return one(ran.code === 0, ran.output.trim());
}

// Every test of one Vitest project must pass, and at least one must run.
async function allPass(project: string): Promise<Result> {
	const report = await vitestJson(['--project', project]);
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
	const report = await vitestJson(['--project', 'exercises']);
	const exercises = readdirSync('exercises').filter((name) => /^\d\d-/.test(name));
	const problems = exercises.flatMap((exercise) => {
		const tests = report.tests.filter((test) => exerciseOf(test.file) === exercise);
		if (tests.length === 0) return [`${exercise}: no test ran as shipped\n${report.output}`];
		if (tests.every((test) => test.status !== 'failed'))
			return [`${exercise} passes as shipped: it teaches nothing`];
		return [];
	});
	return { passed: exercises.length - problems.length, failed: problems.length, problems };
}

// Each named wrong solution must fail on the test meant to catch its mistake, saying why.
async function wrongSolutionsFail(): Promise<Result> {
	const verdicts = await playWrongSolutions();
	const problems = verdicts.flatMap((verdict) => (verdict.problem ? [verdict.problem] : []));
	return { passed: verdicts.length - problems.length, failed: problems.length, problems };
}

async function schedulesLoad(): Promise<Result> {
	const { passed, failed } = checkSchedules();
	return { passed: passed.length, failed: failed.length, problems: failed };
}

const steps: Step[] = [
	{
		name: 'formatting (prettier --check)',
		check: () => command(bin('prettier'), ['--check', '--log-level=warn', '.'])
	},
	{ name: 'types (tsc --noEmit)', check: () => command(bin('tsc'), ['--noEmit', '-p', '.']) },
	{ name: 'schedules match their schemas', check: schedulesLoad },
	{ name: 'the solutions pass every test', check: () => allPass('solutions') },
	{ name: 'the harness passes its own tests', check: () => allPass('harness') },
	{ name: 'every exercise fails as shipped', check: exercisesFailAsShipped },
	{ name: 'every wrong solution fails where it should', check: wrongSolutionsFail }
];

let passed = 0;
let failed = 0;
for (const step of steps) {
	const started = Date.now();
	const result = await step.check();
	passed += result.passed;
	failed += result.failed;
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(
		`${result.failed ? '✘' : '✔'} ${step.name}: ${result.passed} passed, ${result.failed} failed (${seconds}s)`
	);
	for (const problem of result.problems) console.log(problem.replace(/^/gm, '    '));
}
console.log(`verify: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
