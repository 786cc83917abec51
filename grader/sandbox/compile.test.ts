// The compile step is shared by the class: a file that crashes the compiler costs that file alone.
import { describe, expect, it } from 'vitest';
import { compileFile } from './compile.ts';

// A quarter of a million `!` in a row overflows esbuild's stack and ends its service process.
const crashing = `export const boom = ${'!'.repeat(240_000)}1;\n`;
const honest = (n: number) => `export const answer${n} = ${n};\n`;

describe('compileFile', () => {
	it('compiles the classmates around a file that crashes the compiler', { timeout: 60_000 }, async () => {
		const results = await Promise.all([
			compileFile(honest(1), 'exercises/a.ts'),
			compileFile(crashing, 'exercises/crash.ts'),
			compileFile(honest(2), 'exercises/b.ts'),
			compileFile(honest(3), 'exercises/c.ts')
		]);
		expect(results[1]).toEqual({ error: 'the compiler (esbuild) crashed on it twice; simplify the file' });
		for (const n of [0, 2, 3]) expect(results[n]).toHaveProperty('js', expect.stringContaining('answer'));
		expect(await compileFile(honest(4), 'exercises/d.ts')).toHaveProperty('js');
	});

	it('refuses a file past the size the grader takes, and says why', async () => {
		const big = `export const x = '${'x'.repeat(300 * 1024)}';\n`;
		expect(await compileFile(big, 'exercises/big.ts')).toEqual({
			error: 'larger than 256 KB, which the grader does not compile'
		});
	});

	it('reports a compile error as the first message and its line', async () => {
		expect(await compileFile('export const = 1;\n', 'exercises/bad.ts')).toEqual({
			error: expect.stringMatching(/\(line 1\)$/)
		});
	});
});
