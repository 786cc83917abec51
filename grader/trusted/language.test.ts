// Which language each exercise of a submission is graded in, read from what the learner changed.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { root } from '../sandbox/paths.ts';
import { better, goExerciseFiles, languagesOf } from './language.ts';
import type { ScoredExercise } from './score.ts';
import { readSubmission } from './submission.ts';

const made: string[] = [];
function copy(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), 'language-'));
	made.push(dir);
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), content);
	}
	return dir;
}
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const text = (path: string) => readFileSync(join(root, path), 'utf8');
const first = exercises().find((exercise) => exercise.id === '01')!;
const ts = 'exercises/01-first-handler/handler.ts';
const go = 'go/exercises/01-first-handler/handler.go';

describe('languagesOf: the language of an exercise is the one whose files the learner changed', () => {
	it.each([
		['neither changed: TypeScript, as before', { [ts]: text(ts), [go]: text(go) }, ['TypeScript']],
		['TypeScript changed', { [ts]: 'export class TicketHandler {}', [go]: text(go) }, ['TypeScript']],
		['Go changed', { [ts]: text(ts), [go]: text('go/solutions/01-first-handler/handler.go') }, ['Go']],
		['Go alone, no exercises/ folder', { [go]: 'package firsthandler\n' }, ['Go']],
		[
			'both changed: both graded',
			{ [ts]: 'export class TicketHandler {}', [go]: 'package firsthandler\n' },
			['TypeScript', 'Go']
		]
	])('%s', (_what, files, expected) => {
		const submission = readSubmission(copy(files), exercises());
		expect(submission.notAWorkbook).toBeNull();
		expect(languagesOf(submission, first)).toEqual(expected);
	});

	it('takes only the Go learner files, and builds the stub where the learner changed nothing', () => {
		const submission = readSubmission(
			copy({ [go]: 'package firsthandler\n', 'go/go.mod': 'module evil\n', [ts]: text(ts) }),
			exercises()
		);
		expect([...submission.goFiles.keys()]).toEqual(['01-first-handler/handler.go']);
		expect(submission.ignored).toContain('go/go.mod (edited)');
		expect(submission.ignored.filter((file) => file.startsWith(go))).toEqual([]);
		const race = exercises().find((exercise) => exercise.id === '03')!;
		expect(goExerciseFiles(race, submission).get('03-the-race/atomic.go')).toBe(
			text('go/exercises/03-the-race/atomic.go')
		);
	});
});

describe('better: the score that counts, and the line that says how it was graded', () => {
	const scored = (score: number) =>
		({ exercise: first, tests: [], score, max: 10, firstFailure: null }) as ScoredExercise;
	it.each([
		[[['TypeScript', 4]], undefined, 4],
		[[['Go', 4]], 'graded in Go (go/exercises/01-first-handler/)', 4],
		[
			[
				['TypeScript', 4],
				['Go', 7.5]
			],
			"graded in both: TypeScript 4/10, Go 7.5/10; Go's counts",
			7.5
		],
		[
			[
				['TypeScript', 5],
				['Go', 5]
			],
			"graded in both: TypeScript 5/10, Go 5/10; TypeScript's counts",
			5
		]
	] as const)('%j', (runs, note, score) => {
		const counted = better(runs.map(([language, points]) => ({ language, exercise: scored(points) })));
		expect([counted.note, counted.score]).toEqual([note, score]);
	});
});
