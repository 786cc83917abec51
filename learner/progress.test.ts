import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exercises, workbookRoot, type Exercise } from '#harness/core/manifest.ts';
import { run } from '../lib/run.ts';
import { formatProgress, type ExerciseResult } from './progress.ts';
import { reset } from './reset.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';

const exercise = (id: string, title: string): Exercise => ({
	id,
	folder: `${id}-x`,
	title,
	learnerFiles: ['handler.ts'],
	weight: 1
});
const one = exercise('01', 'The first handler');
const two = exercise('02', 'sameEvent and replay');

describe('what progress prints', () => {
	it('marks each exercise, counts tests, and points at the first red one with its commands', () => {
		const results: ExerciseResult[] = [
			{ exercise: one, passed: 10, total: 10 },
			{
				exercise: two,
				passed: 3,
				total: 19,
				firstRed: {
					test: 'sameEvent › another tenant',
					message: 'sameEvent is not written yet.\n  write it in x'
				}
			}
		];
		const text = formatProgress(results, { goFolder: false });
		expect(text).toContain('1 of 2 exercises green · 13 of 29 tests pass');
		expect(text).toMatch(/✔ 01 · The first handler +10\/10\n/);
		expect(text).toMatch(/✘ 02 · sameEvent and replay + 3\/19 +← next/);
		expect(text).toContain('Next: 02 · sameEvent and replay');
		expect(text).toContain('first red test: sameEvent › another tenant');
		expect(text).toContain('sameEvent is not written yet.');
		expect(text).toContain('npm test exercises/02');
		expect(text).toContain('npm run hint -- 02');
		expect(text).toContain('exercises/02-x/README.md');
	});
	it('shows the green tests of given code apart, so an untouched exercise reads 0 of its own', () => {
		const text = formatProgress([{ exercise: one, passed: 0, total: 21, given: 19 }], { goFolder: false });
		expect(text).toContain('0 of 1 exercises green · 0 of 21 tests pass');
		expect(text).toMatch(/✘ 01 · The first handler +0\/21 +\(\+19 on given code\) +← next/);
	});
	it('calls an exercise with a test file not as shipped, or filtered, red, never green', () => {
		const rows: ExerciseResult[] = [
			{ exercise: one, passed: 1, total: 16, ran: 1 },
			{ exercise: two, passed: 29, total: 29, testFiles: ['handler.test.ts (changed)'] }
		];
		const text = formatProgress(rows, { goFolder: false });
		expect(text).toContain('0 of 2 exercises green · 30 of 45 tests pass');
		expect(text).toMatch(/✘ 01 · The first handler + 1\/16 +filtered: 1 of 16 ran +← next/);
		expect(text).toMatch(/✘ 02 · sameEvent and replay +29\/29 +1 test file not as shipped\n/);
		expect(text).toContain('02: handler.test.ts (changed): `npm run reset -- 02` puts its tests back');
	});
	it('counts an exercise whose tests did not run as red, never green', () => {
		const text = formatProgress([{ exercise: one, passed: 0, total: 0 }], { goFolder: false });
		expect(text).toMatch(/✘ 01 · The first handler +no tests ran +← next/);
	});
	it('when all are green, ends with what to read next: the solutions, and the Go when it is there', () => {
		const results = [
			{ exercise: one, passed: 10, total: 10 },
			{ exercise: two, passed: 19, total: 19 }
		];
		const withGo = formatProgress(results, { goFolder: true });
		expect(withGo).toContain('2 of 2 exercises green · 29 of 29 tests pass');
		expect(withGo).not.toContain('Next:');
		expect(withGo).toContain('solutions/');
		expect(withGo).toContain('go/');
		expect(formatProgress(results, { goFolder: false })).not.toContain('go/');
	});
});

// The README's sample of `npm run progress`, the first text block after it names the command.
const readmeSample = () => {
	const readme = readFileSync(join(workbookRoot, 'README.md'), 'utf8');
	const after = readme.slice(readme.indexOf("`progress` runs every exercise's tests once"));
	return /```text\n([\s\S]*?)\n```/.exec(after)?.[1]?.trim();
};

// The walk-through, on a copy: all red, solve the first, solve them all, reset the first.
// Solving them all also guards the exercises project's isolate: false: every test must pass, as in verify.
describe('npm run progress, on a copy of the workbook', () => {
	// Transforms are cached inside the copy, so the real cache doesn't gain entries for every throwaway root.
	const progress = (root: string) =>
		run('npm', ['run', '--silent', 'progress', '--', `--experimental.fsModuleCachePath=${root}/.cache`], {
			cwd: root,
			env: { ...process.env, NO_COLOR: '1' }
		});
	const all = exercises();
	const [first, second] = all;

	it('starts at 0 green pointing at the first, moves on as they are solved, and drops back after a reset', async () => {
		const { root, remove } = tempWorkbook();
		try {
			const shipped = await progress(root);
			expect(shipped.code, shipped.output).toBe(0);
			expect(readmeSample(), 'the README shows what progress prints as shipped: paste it there').toBe(
				shipped.output.trim()
			);
			expect(shipped.output).toContain(`0 of ${all.length} exercises green`);
			expect(shipped.output).toContain(`Next: ${first!.id} · ${first!.title}`);
			expect(shipped.output).toContain(`npm test exercises/${first!.id}`);

			solve(root, first!.folder, first!.learnerFiles);
			const solved = await progress(root);
			expect(solved.output).toContain(`1 of ${all.length} exercises green`);
			expect(solved.output).toMatch(new RegExp(`✔ ${first!.id} · `));
			if (second) expect(solved.output).toContain(`Next: ${second.id} · ${second.title}`);

			for (const exercise of all) solve(root, exercise.folder, exercise.learnerFiles);
			const green = await progress(root);
			expect(green.code, green.output).toBe(0);
			expect(green.output).toContain(`${all.length} of ${all.length} exercises green`);
			expect(green.output).not.toContain('Next:');
			expect(green.output).toContain('solutions/');

			reset(root, first!.id, true);
			const again = await progress(root);
			expect(again.output).toContain(`${all.length - 1} of ${all.length} exercises green`);
			expect(again.output).toContain(`Next: ${first!.id} · ${first!.title}`);
		} finally {
			remove();
		}
	}, 240_000); // Four runs of every exercise, 06 on PostgreSQL among them: slow on a busy machine.
});
