// The grader as another platform's autograder. Gradescope: the package is built, unpacked the way Gradescope
// lays out a container (/autograder/source, /autograder/submission, /autograder/results/results.json) under a
// temporary root, and run_autograder grades a submission there. GitHub Classroom: the workflow parses and runs
// the same entry point.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { writePackage } from './package.ts';
import { root } from '../sandbox/paths.ts';
import { materializeSamples, samples } from '../samples/samples.ts';

const Ajv = AjvModule.default ?? AjvModule;
const dir = mkdtempSync(join(tmpdir(), 'grader-platforms-'));
const zip = join(dir, 'autograder.zip');
const seed = 4242;
let listing: string[];

beforeAll(async () => {
	await writePackage(zip, { seed, checks: 2, runs: 10 });
	listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One container: the package in source/ (its node_modules, which setup.sh installs, borrowed from this checkout),
// the sample's files in submission/; run_autograder writes results/results.json.
function gradeIn(sample: string) {
	const container = join(dir, sample, 'autograder');
	mkdirSync(join(container, 'source'), { recursive: true });
	execFileSync('unzip', ['-q', zip, '-d', join(container, 'source')]);
	symlinkSync(join(root, 'node_modules'), join(container, 'source', 'node_modules'));
	const built = materializeSamples(join(dir, 'samples'))[samples.findIndex((s) => s.name === sample)]!;
	cpSync(built, join(container, 'submission'), { recursive: true });
	const ran = spawnSync(join(container, 'source', 'run_autograder'), {
		env: { PATH: process.env.PATH, AUTOGRADER_ROOT: container },
		encoding: 'utf8'
	});
	const file = join(container, 'results', 'results.json');
	return { ran, results: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null };
}

describe('npm run grade:package: a Gradescope autograder zip', () => {
	it('holds setup.sh and run_autograder at its top, the frozen expectations, and not the reference', () => {
		expect(listing).toEqual(
			expect.arrayContaining(['setup.sh', 'run_autograder', 'grader/expectations.json'])
		);
		expect(listing.filter((path) => path.startsWith('solutions/'))).toEqual([]);
		expect(listing.filter((path) => path.includes('/samples/') || path.endsWith('.test.ts'))).toEqual([]);
	});

	it(
		'grades a complete submission in the Gradescope layout: full marks, in results.json',
		{ timeout: 120_000 },
		() => {
			const { ran, results } = gradeIn('complete');
			expect(results, ran.stdout + ran.stderr).not.toBeNull();
			const schema = JSON.parse(
				readFileSync(join(root, 'grader', 'trusted', 'gradescope.schema.json'), 'utf8')
			);
			const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
			expect(validate(results), JSON.stringify(validate.errors)).toBe(true);
			expect(results.score).toBe(results.extra_data.max_score);
			expect(results.extra_data.seed).toBe(seed);
			expect(results.output).not.toMatch(/WITHOUT a sandbox/);
		}
	);

	it('grades an untouched submission there too: nothing', { timeout: 120_000 }, () => {
		const { ran, results } = gradeIn('untouched');
		expect(results, ran.stdout + ran.stderr).not.toBeNull();
		expect(results.score).toBe(0);
	});
});

describe('GitHub Classroom: the workflow a template repository copies', () => {
	it('parses, and grades with the same entry point as Gradescope, on a pristine checkout of the grader', () => {
		const workflow = parse(readFileSync(join(root, 'grader', 'package', 'github-classroom.yml'), 'utf8'));
		const steps = workflow.jobs.grade.steps as { run?: string; uses?: string; with?: { path?: string } }[];
		const grade = steps.find((step) => step.run?.includes('grader/trusted/cli.ts'));
		expect(grade?.run).toMatch(
			/tsx grader\/trusted\/cli\.ts --no-go --gradescope \.\.\/results\.json \.\.\/submission/
		);
		const checkouts = steps.filter((step) => step.uses?.startsWith('actions/checkout'));
		expect(checkouts.map((step) => step.with?.path)).toEqual(['submission', 'grader']);
		expect(steps.some((step) => step.run?.includes('bubblewrap'))).toBe(true);
	});
});

describe("GitHub Classroom, graded from the instructor's repository", () => {
	it("clones each learner's repository as data and grades the class with the grader from the workbook", () => {
		const file = join(root, 'grader', 'package', 'github-classroom-instructor.yml');
		const workflow = parse(readFileSync(file, 'utf8'));
		const steps = workflow.jobs.grade.steps as { run?: string; uses?: string; with?: { path?: string } }[];
		expect(Object.keys(workflow.on)).not.toContain('push');
		const checkouts = steps.filter((step) => step.uses?.startsWith('actions/checkout'));
		expect(checkouts.map((step) => step.with?.path)).toEqual(['instructor', 'grader']);
		const clone = steps.find((step) => step.run?.includes('git clone'));
		expect(clone?.run).toMatch(/rm -rf "class\/.*\/\.git"/);
		expect(steps.find((step) => step.run?.includes('cli.ts'))?.run).toMatch(
			/tsx grader\/trusted\/cli\.ts --no-go --out \.\.\/grades --class \.\.\/class/
		);
	});
});
