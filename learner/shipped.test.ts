// The shipped tests are the tests, and every count comes from them: a test file edited, deleted or added is
// said by name with `npm run reset -- NN` and never shows a tick; one that does not load still counts its tests;
// a filtered run never ticks an exercise it did not run whole. verify runs this file (the harness project).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { run } from '../lib/run.ts';
import { reset } from './reset.ts';
import { shippedCopy, shippedTestCount, testCounts, testFilesOf } from './shipped.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';

const env = { ...process.env, NO_COLOR: '1' };
const fresh = 'run npm run shipped -- --write';

describe('learner/shipped/ holds every test file as shipped, and tests.json counts each', () => {
	for (const exercise of exercises())
		for (const file of testFilesOf(workbookRoot, exercise))
			it(file.file, () => {
				expect(file.state, `${shippedCopy(exercise.folder, file.name)} is ${file.state}: ${fresh}`).toBe(
					'as shipped'
				);
				expect(file.tests, `learner/shipped/tests.json has no count for it: ${fresh}`).toBeGreaterThan(0);
			});
});

// One copy of the workbook, a learner's ordinary mischief in five exercises, then what each command says.
describe('a test file edited, deleted, added or broken, on a copy of the workbook', () => {
	it('is red and named with reset, counted as shipped, and reset puts the tests back', async () => {
		const { root, remove } = tempWorkbook();
		const file = (...path: string[]) => join(root, 'exercises', ...path);
		const cache = `--experimental.fsModuleCachePath=${root}/.cache`;
		const npmTest = (...args: string[]) => run('npm', ['test', ...args, cache], { cwd: root, env });
		try {
			solve(root, '01-first-handler', ['handler.ts']);
			rmSync(file('01-first-handler', 'handler.test.ts'));
			solve(root, '02-same-event', ['handler.ts']);
			const gutted = "import { it } from 'vitest';\nit('works', () => {});\n";
			writeFileSync(file('02-same-event', 'handler.test.ts'), gutted);
			solve(root, '03-the-race', ['prediction.ts']);
			writeFileSync(file('05-email-outbox', 'outbox.ts'), 'export const broken = ;\n');
			writeFileSync(file('07-close-and-reopen', 'mine.test.ts'), gutted);

			const edited = await npmTest('exercises/02', '--');
			expect(edited.code, edited.output).toBe(1);
			expect(edited.output).toContain(
				'✘ 02 · sameEvent and replay: 0 of 29 tests pass · 1 test file not as shipped'
			);
			expect(edited.output).toContain('handler.test.ts is not as shipped: it was changed (it ships with 29');
			expect(edited.output).toContain('npm run reset -- 02');
			expect(edited.output).not.toMatch(/✔|is green/);

			const deleted = await npmTest('exercises/01', '--');
			expect(deleted.code, deleted.output).toBe(1);
			expect(deleted.output).not.toContain('There is no exercise');
			expect(deleted.output).toContain('✘ 01 · The first handler: 0 of 16 tests pass');
			expect(deleted.output).toContain('handler.test.ts is missing (it ships with 16 tests)');
			expect(deleted.output).toContain('npm run reset -- 01');

			const filtered = await npmTest('exercises/03', '--', '-t', 'prediction');
			expect(filtered.output).toContain(
				'03 · The race: check, then save: filtered: 1 of 27 tests ran, 1 passes'
			);
			expect(filtered.output).not.toMatch(/✔|is green/);
			const oneFile = await npmTest('exercises/03-the-race/prediction.test.ts', '--');
			expect(oneFile.output).toContain('filtered: 1 of 27 tests ran, 1 passes');
			expect(oneFile.output).not.toMatch(/✔|is green/);

			const progress = await run('npm', ['run', '--silent', 'progress', '--', cache], { cwd: root, env });
			const counts = testCounts(root);
			const total = exercises(root).reduce((sum, e) => sum + shippedTestCount(root, e, counts), 0);
			expect(progress.output).toMatch(new RegExp(`0 of 7 exercises green · \\d+ of ${total} tests pass`));
			expect(progress.output).toMatch(/✘ 01 · The first handler +0\/16 +1 test file not as shipped/);
			expect(progress.output).toMatch(/✘ 02 · sameEvent and replay +0\/29 +1 test file not as shipped/);
			expect(progress.output).toMatch(/✘ 05 · An email outbox +0\/23 /);
			expect(progress.output).toMatch(/✘ 07 · Close and reopen +0\/12 +1 test file not as shipped/);
			expect(progress.output).toContain('first red test: the tests are not the ones 01 ships');
			expect(progress.output).toContain(
				'02: handler.test.ts (changed): `npm run reset -- 02` puts its tests back'
			);
			expect(progress.output).toContain('07: mine.test.ts (extra): `npm run reset -- 07`');

			expect(reset(root, '02', false).code, 'a changed test file is the learner’s: reset asks first').toBe(1);
			const when = new Date('2026-01-02T03:04:05Z');
			for (const id of ['01', '02', '07']) expect(reset(root, id, true, when).code).toBe(0);
			for (const exercise of exercises(root).filter((e) => ['01', '02', '07'].includes(e.id)))
				expect(testFilesOf(root, exercise).map((f) => `${f.name} ${f.state}`)).toEqual(
					Object.keys(counts[exercise.folder]!).map((name) => `${name} as shipped`)
				);
			const kept = join(root, '.learner/before-reset/2026-01-02T03-04-05-000Z');
			expect(readFileSync(join(kept, '02-same-event/handler.test.ts'), 'utf8')).toBe(gutted);
			expect(readFileSync(join(kept, '07-close-and-reopen/mine.test.ts'), 'utf8')).toBe(gutted);
			expect(existsSync(file('07-close-and-reopen', 'mine.test.ts'))).toBe(false);
		} finally {
			remove();
		}
	}, 240_000);
});
