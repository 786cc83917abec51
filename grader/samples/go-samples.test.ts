// Grades the Go track's samples (go-samples.ts) as a Go class, and a mixed class (a TypeScript learner, a Go
// learner, one who did some of both), and pins each sample's score per exercise and a line of its report.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeClass, type ClassGrade, type Graded, type Options } from '../trusted/grade.ts';
import type { ExerciseRun } from '../trusted/run-exercise.ts';
import type { ScoredExercise } from '../trusted/score.ts';
import { classDetails, classTable } from '../trusted/table.ts';
import { learnerDiagnosis } from '../trusted/gradescope.ts';
import { readHints } from '../../lib/hints.ts';
import { workbookRoot } from '#harness/core/manifest.ts';
import { goSamples } from './go-samples.ts';
import { materializeSamples, samples, type Kind, type Sample } from './samples.ts';

const dir = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : homedir(), 'grader-go-samples-'));
const mixed = ['partial', 'go-complete', 'both-languages'];
const byName = (name: string) => [...samples, ...goSamples].find((sample) => sample.name === name)!;
const goClass = goSamples.filter((sample) => sample.name !== 'both-languages');
const buildsBefore = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('grade-go-')));
let goGrade: ClassGrade;
let mixedGrade: ClassGrade;

beforeAll(async () => {
	const goPaths = materializeSamples(join(dir, 'go'), goClass);
	const mixedPaths = materializeSamples(join(dir, 'mixed'), mixed.map(byName));
	// The two classes share their expectations and the runs of submissions whose files are the same.
	const cache = new Map<string, Promise<ExerciseRun>>();
	const settings: Partial<Options> = {
		seed: 20261201,
		heldOutChecks: 1,
		heldOutRuns: 8,
		timeoutMs: 120_000,
		cache
	};
	goGrade = await gradeClass(goPaths, { ...settings, classFolder: join(dir, 'go') });
	mixedGrade = await gradeClass(mixedPaths, { ...settings, classFolder: join(dir, 'mixed') });
}, 1_800_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const graded = (grade: ClassGrade, sample: Sample): Graded | undefined =>
	grade.graded.find((g) => g.submission.name === sample.name);

// Each named mistake's hint a report quotes, and whether it is the one the learner's language has: Go's
// command and hints.go.md's title for an exercise graded in Go, npm's and hints.md's otherwise.
function quotedHints(grade: ClassGrade): { language: string; right: boolean; line: string }[] {
	return grade.graded.flatMap((got) =>
		learnerDiagnosis(got).flatMap((line) => {
			const quote = /Read hint (\d+) of `(.*?)`: "(.*)"$/.exec(line);
			const id = quote && / (\d\d)$/.exec(quote[2]!)?.[1];
			const scored = got.exercises.find((e) => e.exercise.id === id);
			if (!quote || !scored) return [];
			const go = scored.language === 'Go';
			const title = readHints(workbookRoot, scored.exercise, go ? 'go' : 'typescript')[Number(quote[1]) - 1]
				?.title;
			const command = go ? `go run ./cmd/workbook hint ${id}` : `npm run hint -- ${id}`;
			return [
				{ language: go ? 'Go' : 'TypeScript', right: quote[2] === command && quote[3] === title, line }
			];
		})
	);
}

function holds(scored: ScoredExercise, score: 'full' | 'zero' | 'some') {
	const id = scored.exercise.id;
	if (score === 'full') {
		const failed = scored.tests.filter((t) => t.status !== 'passed').map((t) => `${t.name}: ${t.message}`);
		expect(failed, `${id}: every check passes`).toEqual([]);
	} else if (score === 'zero') {
		expect(scored.score, `${id} scores nothing`).toBe(0);
		expect(scored.tests.filter((t) => !t.free && t.status === 'passed')).toEqual([]);
	} else {
		expect(scored.score, `${id} scores some`).toBeGreaterThan(0);
		expect(scored.score, `${id} scores not all`).toBeLessThan(scored.max);
	}
}

function pinned(grade: ClassGrade, sample: Sample) {
	const got = graded(grade, sample);
	expect(got, `${sample.name} was graded`).toBeDefined();
	for (const scored of got!.exercises) holds(scored, sample.scores?.[scored.exercise.id] ?? sample.rest!);
	const row = classTable({ ...grade, graded: [got!] })
		.split('\n')
		.at(-1)!;
	expect([row, ...classDetails(got!)].join('\n')).toMatch(sample.says);
}

describe('a Go class: each Go sample pinned to its score and a line of its report', () => {
	it('has hostile Go samples of the kinds the Go route meets: the reference, the channel, the class', () => {
		const kinds: Kind[] = ['reference', 'channel', 'class'];
		for (const kind of kinds) expect(goClass.filter((s) => s.kind === kind).length, kind).toBeGreaterThan(0);
	});

	for (const sample of goClass) it(`${sample.name}: ${sample.story}`, () => pinned(goGrade, sample));

	it('saw no attempt in honest Go work, and graded its exercises in Go', () => {
		for (const sample of goClass.filter((s) => s.kind === 'honest' && s.go!.solved.length)) {
			const got = graded(goGrade, sample)!;
			const messages = got.exercises.flatMap((e) => e.tests.map((t) => t.message));
			expect(
				messages.filter((m) => m.includes('outside its sandbox')),
				sample.name
			).toEqual([]);
			expect(got.exercises.find((e) => e.exercise.id === '01')!.language, sample.name).toBe('Go');
		}
	});

	it("diagnoses 03's, 05's and 06's Go mistakes as TypeScript's of the same name: the same answer on every input, so the same points", () => {
		const details = classDetails(graded(goGrade, byName('go-partial'))!).join('\n');
		for (const [id, mistake] of [
			['03', 'error-on-unique-violation'],
			['05', 'mark-before-send'],
			['06', 'key-saved-in-its-own-transaction']
		])
			expect(details).toMatch(
				new RegExp(`\\n  ${id}: .*\\n +${mistake}: your answers match it on (\\d+) of \\1 inputs where`)
			);
	});

	it("quotes a named mistake's hint from Go's hints, with Go's hint command", () => {
		const quoted = quotedHints(goGrade);
		expect(quoted.filter((q) => q.language === 'Go').length).toBeGreaterThan(0);
		expect(quoted.filter((q) => !q.right).map((q) => q.line)).toEqual([]);
	});

	it("loses 06's crash points to the Go mistake key-saved-in-its-own-transaction, told as its patch says", () => {
		const scored = graded(goGrade, byName('go-partial'))!.exercises.find((e) => e.exercise.id === '06')!;
		const failed = scored.tests.filter((t) => t.status !== 'passed' && !t.free);
		expect(failed.map((t) => t.name)).toEqual(['held-out crash points, check 1 of 1']);
		expect(failed[0]!.message).toMatch(/the worker was stopped between your two commits/);
		expect(failed[0]!.message).toMatch(/the retry made ticket #\d+: the crash and its retry made 2 tickets/);
	});

	it('left no build folder behind', () => {
		const left = readdirSync(tmpdir()).filter(
			(name) => name.startsWith('grade-go-') && !buildsBefore.has(name)
		);
		expect(left).toEqual([]);
	});
});

describe('a mixed class: TypeScript, Go, and both, graded side by side on the same checks', () => {
	for (const name of mixed) it(`${name}: ${byName(name).story}`, () => pinned(mixedGrade, byName(name)));

	it("quotes each named mistake's hint in the language its exercise was graded in", () => {
		expect(
			quotedHints(mixedGrade)
				.filter((q) => !q.right)
				.map((q) => q.line)
		).toEqual([]);
	});

	it('gives the same points for the same exercise solved in either language', () => {
		const inTypeScript = graded(mixedGrade, byName('partial'))!.exercises.find(
			(e) => e.exercise.id === '01'
		)!;
		const inGo = graded(mixedGrade, byName('go-complete'))!.exercises.find((e) => e.exercise.id === '01')!;
		expect(inTypeScript.language).toBeUndefined();
		expect(inGo.language).toBe('Go');
		expect(inGo.score).toBe(inTypeScript.score);
		expect(inGo.tests.map((t) => [t.name, t.max])).toEqual(inTypeScript.tests.map((t) => [t.name, t.max]));
	});

	it('gives the same points for 03, 05 and 06 solved in both languages, judged from Go runs on the same checks', () => {
		const exercises = graded(mixedGrade, byName('both-languages'))!.exercises;
		for (const id of ['03', '05', '06']) {
			const scored = exercises.find((e) => e.exercise.id === id)!;
			expect(scored.note, id).toMatch(
				/^graded in both: TypeScript ([\d.]+\/\d+), Go \1; TypeScript's counts$/
			);
			expect(scored.score, id).toBe(scored.max);
		}
	});

	it('gives 06 solved in Go the points 06 solved in TypeScript gets, on the same checks', () => {
		const inGo = graded(mixedGrade, byName('go-complete'))!.exercises.find((e) => e.exercise.id === '06')!;
		const both = graded(mixedGrade, byName('both-languages'))!.exercises.find((e) => e.exercise.id === '06')!;
		expect(inGo.language).toBe('Go');
		expect(inGo.score).toBe(inGo.max);
		expect(both.note).toMatch(/^graded in both: TypeScript 20\/20, Go 20\/20; TypeScript's counts$/);
		expect(inGo.score).toBe(both.score);
		expect(inGo.tests.map((t) => [t.name, t.max])).toEqual(both.tests.map((t) => [t.name, t.max]));
	});
});
