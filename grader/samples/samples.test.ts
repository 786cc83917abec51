// Grades every sample submission once, honest and hostile, and pins each one's score per exercise and one line
// of its report; then checks what must hold for the whole class: nothing outside a sandbox changed, nothing a
// submission started is still running, and nothing secret reached any learner's results.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classCsv } from '../trusted/csv.ts';
import { encodedForms, gradeClass, type ClassGrade, type Graded } from '../trusted/grade.ts';
import { gradescopeResults } from '../trusted/gradescope.ts';
import { root } from '../sandbox/paths.ts';
import { mayMountOverlay, mountsUnder } from '../sandbox/overlay.ts';
import { startedServers } from '../sandbox/postgres.ts';
import { casesOf, heldOutFile, type Probe } from '../trusted/probe.ts';
import { materializeSamples, samples, type Kind, type Sample } from './samples.ts';
import type { ScoredExercise } from '../trusted/score.ts';
import { hashFiles } from '../trusted/submission.ts';
import { classDetails, classReport, classTable } from '../trusted/table.ts';

const Ajv = AjvModule.default ?? AjvModule;
// The class lives outside /tmp (inside a sandbox, /tmp is the run's own, so a path there names nothing else)
// and outside the checkout (its links and FIFOs are no place for a copy of the workbook to meet).
const dir = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : homedir(), 'grader-samples-'));
const seed = 20261129;
const limit = 5;
const canary = `grader-secret-${process.pid}-canary`;
// Files a submission must not be able to change, hashed before and after.
const guarded = [
	'solutions/01-first-handler/handler.ts',
	'harness/core/model.ts',
	'node_modules/fast-check/package.json',
	'node_modules/@vitest/runner/package.json',
	'grader/checks/01-first-handler.held.ts'
];
const hashOf = (files: string[]) =>
	files.map((file) =>
		createHash('sha256')
			.update(readFileSync(join(root, file)))
			.digest('hex')
	);
let before: string[];
// The socket folders and postmasters of the clusters the grading started for 06 (seen while it ran).
const clustersOfGrading = new Map<string, number>();
let grade: ClassGrade;
let report: string;
// Asked before any cluster is made: where this grader may mount, every run's cluster is an overlay on the base.
const expectedWay = mayMountOverlay() ? 'overlay' : 'copy';

// Some 70 submissions, a dozen of them with a 06 run of their own (a cluster each): minutes on a busy machine.
beforeAll(async () => {
	before = hashOf(guarded);
	process.env.GRADER_SECRET = canary;
	// Every sample but the looping ones gets a generous limit, so a busy machine is never mistaken for a loop;
	// the looping ones are graded next with a short limit, sharing the expectations already computed.
	const paths = materializeSamples(dir);
	const looping = ['infinite-loop', 'batch-loop', 'batch-late-loop'];
	const loops = paths.filter((_, i) => looping.includes(samples[i]!.name));
	const settings = { seed, heldOutChecks: 2, heldOutRuns: 15, classFolder: dir };
	const rest = await gradeClass(
		paths.filter((path) => !loops.includes(path)),
		{
			...settings,
			timeoutMs: 120_000,
			onGraded: () => {
				for (const [socket, pid] of startedServers) clustersOfGrading.set(socket, pid);
			}
		}
	);
	const short = await gradeClass(loops, { ...settings, timeoutMs: limit * 1000 });
	grade = { ...rest, graded: [...short.graded, ...rest.graded] };
	report = classReport(grade, 'Go reference: not run (in this test)');
}, 1_800_000);
afterAll(() => {
	delete process.env.GRADER_SECRET;
	rmSync(dir, { recursive: true, force: true });
});

const learner = (sample: Sample) => sample.learner ?? sample.at ?? sample.name;
const graded = (sample: Sample): Graded | undefined =>
	grade.graded.find((g) => g.submission.name === learner(sample));
const counted = (scored: ScoredExercise) => scored.tests.filter((test) => !test.free);

function holds(scored: ScoredExercise, score: 'full' | 'zero' | 'some') {
	const id = scored.exercise.id;
	if (score === 'full') {
		const failed = scored.tests.filter((t) => t.status !== 'passed').map((t) => `${t.name}: ${t.message}`);
		expect(failed, `${id}: every check passes`).toEqual([]);
		expect(scored.score, id).toBe(scored.max);
	} else if (score === 'zero') {
		expect(scored.score, `${id} scores nothing`).toBe(0);
		expect(counted(scored).filter((test) => test.status === 'passed')).toEqual([]);
	} else {
		expect(scored.score, `${id} scores some`).toBeGreaterThan(0);
		expect(scored.score, `${id} scores not all`).toBeLessThan(scored.max);
	}
}

describe('the sample submissions, each pinned to its score and a line of its report', () => {
	it('has at least 25 samples, hostile ones of every kind the grader defends against', () => {
		expect(samples.length).toBeGreaterThanOrEqual(25);
		const kinds: Kind[] = [
			'reference',
			'verdicts',
			'channel',
			'leak',
			'class',
			'database',
			'unpacking',
			'names',
			'batch'
		];
		for (const kind of kinds) expect(samples.filter((s) => s.kind === kind).length, kind).toBeGreaterThan(0);
		expect(new Set(samples.map(learner)).size).toBe(samples.length);
	});

	it('checks every exercise of the manifest (grader/checks/<folder>.held.ts), given and held-out', () => {
		expect(grade.unchecked, 'exercises without checks').toEqual([]);
		const complete = graded(samples[0]!)!;
		for (const scored of complete.exercises) {
			expect(existsSync(heldOutFile(scored.exercise)), scored.exercise.folder).toBe(true);
			expect(
				scored.tests.some((t) => t.heldOut && t.max > 0),
				scored.exercise.id
			).toBe(true);
			expect(
				scored.tests.some((t) => !t.heldOut && t.max > 0),
				scored.exercise.id
			).toBe(true);
		}
	});

	for (const sample of samples) {
		it(`${sample.name}: ${sample.story}`, () => {
			if (!sample.scores && !sample.rest) {
				expect(graded(sample), 'not graded at all').toBeUndefined();
				expect(report).toMatch(sample.says);
				return;
			}
			const got = graded(sample);
			expect(got, `${learner(sample)} was graded`).toBeDefined();
			for (const scored of got!.exercises) holds(scored, sample.scores?.[scored.exercise.id] ?? sample.rest!);
			const row = classTable({ ...grade, graded: [got!] })
				.split('\n')
				.at(-1)!;
			expect([row, ...classDetails(got!)].join('\n')).toMatch(sample.says);
		});
	}
});

describe('what holds for the whole class, whatever the hostile samples did', () => {
	it('changed nothing outside their sandboxes: the checkout, node_modules, the reference, classmates', () => {
		expect(hashOf(guarded)).toEqual(before);
		const classmate = join(dir, 'complete', 'exercises', '02-same-event', 'handler.ts');
		expect(readFileSync(classmate, 'utf8')).toBe(
			readFileSync(join(root, 'solutions', '02-same-event', 'handler.ts'), 'utf8')
		);
		expect(existsSync(join(tmpdir(), 'grader-private-tmp-marker'))).toBe(false);
	});

	it('saw no attempt in honest work, on any exercise (06 on PostgreSQL, 03 and 05 racing, too)', () => {
		const honest = samples.filter(
			(s) =>
				s.kind === 'honest' || ['private-tmp', 'flood-output', 'same-name-a', 'same-name-b'].includes(s.name)
		);
		for (const sample of honest) {
			const messages = (graded(sample)?.exercises ?? []).flatMap((e) => e.tests.map((t) => t.message));
			expect(
				messages.filter((m) => m.includes('outside its sandbox')),
				sample.name
			).toEqual([]);
		}
	});

	it("stopped every PostgreSQL cluster of the grading (06's, one a run), and removed their folders", () => {
		expect(startedServers.size, 'clusters still running').toBe(0);
		expect(clustersOfGrading.size, 'clusters were started for 06').toBeGreaterThan(0);
		for (const [socket, pid] of clustersOfGrading) {
			expect(existsSync(socket), socket).toBe(false);
			expect(existsSync(`/proc/${pid}`), `postgres (pid ${pid})`).toBe(false);
			// A run's cluster mounted as an overlay on the base is unmounted too.
			expect(mountsUnder(dirname(socket)), socket).toEqual([]);
		}
	});

	it('left no process running and no cgroup behind', () => {
		const alive = readdirSync('/proc')
			.filter((pid) => /^\d+$/.test(pid))
			.filter((pid) => {
				try {
					const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
					return command.includes('grader-detached-marker') || command.includes(dir);
				} catch {
					return false;
				}
			});
		expect(alive).toEqual([]);
		for (const controller of ['memory', 'pids']) {
			const folder = `/sys/fs/cgroup/${controller}`;
			if (!existsSync(folder)) continue;
			expect(readdirSync(folder).filter((name) => name.startsWith(`grade-cgroup-${process.pid}-`))).toEqual(
				[]
			);
		}
	});

	it("let nothing secret into any learner's results: the environment, held-out source, the grader's paths", () => {
		// Lines of the held-out checks' source long enough to be their own, never a learner's words.
		const source = ['01-first-handler.held.ts', 'handler.ts'].flatMap((file) =>
			readFileSync(join(root, 'grader', 'checks', file), 'utf8')
				.split('\n')
				.map((line) => line.trim())
				.filter((line) => line.length > 40)
		);
		for (const one of grade.graded) {
			const results = JSON.stringify(gradescopeResults(one));
			expect(results, one.submission.name).not.toContain(canary);
			for (const line of source) expect(results, one.submission.name).not.toContain(line);
			// Nor encoded: base64 (any alignment), hex, URI escapes (leak-encoded writes them).
			for (const form of [root.replace(/\/$/, ''), dir].flatMap(encodedForms))
				expect(results, `${one.submission.name}: ${form}`).not.toContain(form);
		}
		const leaked = gradescopeResults(graded(samples.find((s) => s.name === 'leak-env')!)!);
		// What the environ dump found: the sandbox's own few variables, nothing of the grader's.
		const said = leaked.tests.find((t) => t.output.includes('LEAK'))!.output;
		const environment = JSON.parse(/LEAK (\{.*?\})/.exec(said)![1]!);
		expect(Object.keys(environment).sort()).toEqual([
			'GRADE_JOB',
			'HOME',
			'NO_COLOR',
			'PATH',
			'PWD',
			'TMPDIR',
			'TZ'
		]);
	});
});

describe('what a learner sees of the held-out checks', () => {
	it('shows one held-out input at most of each check, however the code writes the others into its answers', async () => {
		const { probe } = (await import('../checks/02-same-event.held.ts')) as { probe: Probe };
		const checks = probe({ seed, checks: 2, runs: 15 }).filter((check) => check.heldOut);
		const results = gradescopeResults(graded(samples.find((s) => s.name === 'leak-held-out-answers')!)!);
		// What the learner reads: every test's output and the report's, as text.
		const text = [results.output, ...results.tests.map((test) => test.output)].join('\n');
		// A case is there when its JSON is, literally or encoded (base64 at every alignment, hex, URI escapes).
		const found = (json: string) => encodedForms(json).some((form) => text.includes(form));
		for (const check of checks) {
			const cases = [...new Set(casesOf(check).map((input) => JSON.stringify(input)))];
			expect(cases.length, check.name).toBeGreaterThan(1);
			expect(cases.filter(found).length, check.name).toBeLessThanOrEqual(1);
		}
	});
});

describe('the reports', () => {
	it("says how the runs' PostgreSQL clusters were made: overlays on the base where the grader may mount", () => {
		expect(report).toContain(
			`PostgreSQL: a cluster per run, ${expectedWay === 'overlay' ? 'an overlay on' : 'a copy of'} the grading's base`
		);
	});

	it('stamps every report with the workbook, the schedules, the files graded and the seed', () => {
		for (const one of grade.graded) {
			expect(one.stamps.seed).toBe(seed);
			expect(one.stamps.schedules).toMatch(/^[0-9a-f]{16}$/);
			expect(one.stamps.workbook).toMatch(/^\d+\.\d+\.\d+/);
			expect(one.stamps.submission).toBe(hashFiles(one.submission.files));
		}
	});

	it('writes a results.json per submission that validates against the Gradescope schema', () => {
		const schema = JSON.parse(
			readFileSync(new URL('../trusted/gradescope.schema.json', import.meta.url), 'utf8')
		);
		const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
		// Each learner's name is the folder its results.json is written in: every one is a name a folder may have.
		const folders = mkdtempSync(join(dir, '..', 'grader-names-'));
		try {
			for (const one of grade.graded) mkdirSync(join(folders, one.submission.name));
		} finally {
			rmSync(folders, { recursive: true, force: true });
		}
		for (const one of grade.graded) {
			const results = gradescopeResults(one);
			expect(validate(results), `${one.submission.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
			const sum = results.tests.reduce((total, test) => total + test.score, 0);
			expect(sum).toBeCloseTo(results.score, 3);
		}
	});

	it('writes a class CSV with a row per learner graded, and names the ones it refused in the report', () => {
		const csv = classCsv(grade).trim().split('\n');
		expect(csv).toHaveLength(grade.graded.length + 1);
		expect(csv.slice(1).every((row) => row.includes(',bubblewrap,'))).toBe(true);
		expect(grade.refused.map((entry) => entry.reason)).toHaveLength(1);
		// No learner's folder name forges a heading, a line or a formula in the instructor's files.
		expect(report.split('\n')).not.toContain('complete:');
		expect(report).not.toMatch(/^ {2}01: 0 for this exercise$/m);
		expect(csv.some((row) => row.startsWith("'=2+5,"))).toBe(true);
		expect(csv.filter((row) => /^[=+\-@\t\r]/.test(row))).toEqual([]);
		expect(report).toContain(`seed ${seed}`);
		expect(report).toMatch(/^sandbox: bubblewrap, memory and processes limited by a cgroup$/m);
	});
});
