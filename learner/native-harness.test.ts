// The harness Node loads natively in the learner's runs (native-harness.ts): one module for each harness file,
// found where the sources are, rebuilt by an edit, and a run whose every word is the one Vitest's own build gives.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../lib/run.ts';
import { nativeHarness, type NativeHarness } from './native-harness.ts';
import { tempWorkbook, words } from './temp-workbook.ts';

const workbook = tempWorkbook();
afterAll(() => workbook.remove());
const built = (): NativeHarness => {
	const harness = nativeHarness(workbook.root);
	if (!harness) throw new Error('the harness was not built');
	return harness;
};
const load = (harness: NativeHarness, specifier: string) =>
	import(pathToFileURL(harness.resolve(specifier)!).href);
const folders = () => readdirSync(join(workbook.root, '.learner', 'native-harness'));

describe('the harness built for Node', () => {
	it('is one module for each file, however it is named, and finds the workbook from where its sources are', async () => {
		const harness = built();
		expect(harness.resolve(join(workbook.root, 'harness/core/model.ts'))).toBe(
			harness.resolve('#harness/core/model.ts')
		);
		expect(harness.resolve('#harness/core/rules.json')).toBeNull();
		expect(harness.resolve(join(workbook.root, 'exercises/01-first-handler/handler.ts'))).toBeNull();
		const manifest = await load(harness, '#harness/core/manifest.ts');
		expect(manifest.workbookRoot).toBe(join(workbook.root, '/'));
		// endpoint/tests.ts reaches the contract through #harness/… and through ./…: the same module.
		const contract = await load(harness, '#harness/endpoint/contract.ts');
		const viaTests = readFileSync(harness.resolve('#harness/endpoint/tests.ts')!, 'utf8');
		expect(viaTests).not.toMatch(/from '[^']*\.ts'/);
		expect(Object.keys(contract).length).toBeGreaterThan(0);
	});

	it('is built again when a harness file changes, and the folder of the old content goes', async () => {
		const before = built();
		const file = join(workbook.root, 'harness/core/mismatch.ts');
		const text = readFileSync(file, 'utf8');
		expect(built().dir).toBe(before.dir);
		writeFileSync(file, `${text}\nexport const edited = true;\n`);
		try {
			const after = built();
			expect(after.dir).not.toBe(before.dir);
			expect((await load(after, '#harness/core/mismatch.ts')).edited).toBe(true);
			expect(existsSync(before.dir)).toBe(false);
			expect(folders()).toEqual([after.dir.split(/[\\/]/).pop()]);
		} finally {
			writeFileSync(file, text);
		}
	});
});

const npmTest = (native: '0' | '1', ...args: string[]) =>
	run(process.execPath, ['learner/npm-test.js', ...args], {
		cwd: workbook.root,
		env: { ...process.env, NO_COLOR: '1', LEARNER_NATIVE_HARNESS: native },
		timeoutMs: 120_000
	});

describe('a learner run on the native harness', () => {
	// 01 has the harness's own lines in its stack (harness/handler/play.ts:…), 06 the most harness modules.
	it.each([
		['01', '--all'],
		['06', '--all'],
		['06', '']
	])(
		'says exactly what a run through Vitest says: exercises/%s %s',
		{ timeout: 240_000 },
		async (id, all) => {
			const args = [`exercises/${id}`, ...(all ? [all] : [])];
			const [through, native] = [await npmTest('0', ...args), await npmTest('1', ...args)];
			expect(native.code).toBe(through.code);
			expect(words(native.output, all !== '')).toBe(words(through.output, all !== ''));
			expect(folders()).toHaveLength(1);
			if (id === '01') expect(native.output).toMatch(/❯ \S+ harness\/handler\/play\.ts:\d+:\d+/);
		}
	);

	// Vitest keeps the modules it built on disk between runs; a test file names the built harness it imports.
	it(
		'runs as before after a harness edit, with no import of the build the edit removed',
		{ timeout: 240_000 },
		async () => {
			const before = await npmTest('1', 'exercises/01');
			const file = join(workbook.root, 'harness/core/mismatch.ts');
			const text = readFileSync(file, 'utf8');
			writeFileSync(file, `${text}\nexport const edited = true;\n`);
			try {
				const after = await npmTest('1', 'exercises/01');
				expect(after.output).not.toMatch(/did not load/);
				expect(words(after.output, false)).toBe(words(before.output, false));
				expect(after.code).toBe(before.code);
			} finally {
				writeFileSync(file, text);
			}
		}
	);
});
