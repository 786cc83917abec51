// The compile step is shared by the class: a file that crashes the compiler costs that file alone.
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { compiledHarness, compileFile, compileLimitMs, removeCompiledHarness } from './compile.ts';

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

	it(
		'stops a compile past its time limit, and compiles the classmates queued behind it',
		{ timeout: 90_000 },
		async () => {
			// `a<` 16,000 times (32 KB) takes esbuild some 28 s, its time growing with the square of the length.
			const slow = `export const x = ${'a<'.repeat(16_000)}b;\n`;
			const started = Date.now();
			const results = await Promise.all([
				compileFile(slow, 'exercises/slow.ts'),
				compileFile(honest(5), 'exercises/e.ts')
			]);
			expect(results[0]).toEqual({
				error: `the compiler (esbuild) took more than ${compileLimitMs / 1000} s on it twice; simplify the file`
			});
			expect(results[1]).toHaveProperty('js', expect.stringContaining('answer5'));
			// Two tries at the limit, not the compile's own half a minute twice.
			expect(Date.now() - started).toBeLessThan(2 * compileLimitMs + 10_000);
		}
	);

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

// fast-check draws the inputs on the grader's side; a sandbox plays what it is handed, and parsing fast-check (some
// 35 ms of a run's CPU) buys it nothing. 06's endpoint room still draws in modules its observer imports.
const drawsInside = new Set(['06-ticket-endpoint']);

describe('compiledHarness', () => {
	it('loads no fast-check in an exercise whose observers only play', { timeout: 120_000 }, async () => {
		const harness = await compiledHarness({ sandboxed: true });
		try {
			const loaded = exercises()
				.filter((exercise) => !drawsInside.has(exercise.folder))
				.map((exercise) => [exercise.folder, harness.packages.get(exercise.folder)] as const)
				.filter(([, packages]) => packages?.includes('fast-check'));
			expect(loaded, 'observers whose imports load fast-check').toEqual([]);
			expect(harness.packages.get('06-ticket-endpoint')).toContain('pg');
		} finally {
			await removeCompiledHarness();
		}
	});
});
