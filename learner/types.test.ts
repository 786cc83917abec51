// Type errors count: the issue's `const ticketId: string = …` in 01's solution passes every test, and the short
// report and progress still call 01 red, naming the file, the line, the compiler's message and the rule.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../lib/run.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';
import { exercises } from '#harness/core/manifest.ts';
import { exercisesNamed, parseTypeErrors } from './types.ts';

const env = { ...process.env, NO_COLOR: '1' };

describe('type errors count', () => {
	it('reads the compiler’s lines, with the lines that say more', () => {
		const output = [
			"exercises/01-first-handler/handler.ts(16,9): error TS2322: Type 'number' is not assignable to type 'string'.",
			"exercises/02-same-event/handler.ts(3,1): error TS2741: Property 'a' is missing in type '{}'.",
			"  'a' is declared here."
		].join('\n');
		expect(parseTypeErrors(output)).toEqual([
			{
				file: 'exercises/01-first-handler/handler.ts',
				line: 16,
				code: 'TS2322',
				message: "Type 'number' is not assignable to type 'string'."
			},
			{
				file: 'exercises/02-same-event/handler.ts',
				line: 3,
				code: 'TS2741',
				message: "Property 'a' is missing in type '{}'.\n  'a' is declared here."
			}
		]);
	});

	it('checks the exercises a run names, and all of them when it names none', () => {
		const list = exercises();
		const ids = (args: string[]) => exercisesNamed(list, args)?.map((e) => e.id);
		expect(ids(['exercises/01'])).toEqual(['01']);
		expect(ids(['watch', 'exercises/03-the-race/'])).toEqual(['03']);
		expect(ids(['./exercises/03-the-race/prediction.test.ts', 'exercises/05'])).toEqual(['03', '05']);
		expect(ids(['--config', 'learner/vitest.learner.config.ts', '-t', 'prediction'])).toBeUndefined();
	});

	it('a green 01 with a type error is red in npm test and in progress', async () => {
		const { root, remove } = tempWorkbook();
		try {
			solve(root, '01-first-handler', ['handler.ts']);
			const file = join(root, 'exercises/01-first-handler/handler.ts');
			const typed = readFileSync(file, 'utf8').replace('const ticketId =', 'const ticketId: string =');
			expect(typed).toContain('const ticketId: string =');
			writeFileSync(file, typed);
			const test = await run('npm', ['test', 'exercises/01'], { cwd: root, env, timeoutMs: 90_000 });
			expect(test.code, test.output).toBe(1);
			expect(test.output).toContain('✘ 01 · The first handler: 16 of 16 tests pass · 3 type errors');
			expect(test.output).toMatch(
				/handler\.ts:\d+ +TS2322 +Type 'number' is not assignable to type 'string'\./
			);
			expect(test.output).toContain('fix these before 01 counts as green');
			expect(test.output).not.toContain('01 is green');
			const progress = await run('npm', ['run', 'progress'], { cwd: root, env, timeoutMs: 150_000 });
			expect(progress.output).toMatch(/✘ 01 · The first handler +16\/16 +3 type errors/);
			expect(progress.output).toContain('0 of 7 exercises green');
			// The compiler's word is kept for files as they are: unchanged, still red; fixed, green.
			const again = await run('npm', ['test', 'exercises/01'], { cwd: root, env, timeoutMs: 90_000 });
			expect(again.output).toContain('16 of 16 tests pass · 3 type errors');
			solve(root, '01-first-handler', ['handler.ts']);
			const fixed = await run('npm', ['test', 'exercises/01'], { cwd: root, env, timeoutMs: 90_000 });
			expect(fixed.code, fixed.output).toBe(0);
			expect(fixed.output).toContain('01 is green.');
		} finally {
			remove();
		}
	}, 240_000);
});
