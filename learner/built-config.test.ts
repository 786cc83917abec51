// The learner's config built to JavaScript (built-config.js): built once for each content of the files it reads,
// built again when one of them changes, and a run with it says exactly what a run with the .ts says.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../lib/run.ts';
import { builtConfig } from './built-config.js';
import { tempWorkbook, words } from './temp-workbook.ts';

const workbook = tempWorkbook();
afterAll(() => workbook.remove());
const built = async (): Promise<string> => {
	const path = await builtConfig(workbook.root);
	if (path === null) throw new Error('the config was not built');
	return path;
};
const modules = () =>
	readdirSync(join(workbook.root, '.learner', 'config')).filter((name) => name.endsWith('.mjs'));

describe('the learner config built for Node', () => {
	it('is built once for each content, and again when a file it imports changes', async () => {
		const before = await built();
		expect(await built()).toBe(before);
		const inputs = JSON.parse(readFileSync(join(workbook.root, '.learner/config/inputs.json'), 'utf8'));
		expect(inputs).toEqual(expect.arrayContaining(['vitest.config.ts', 'learner/loop-reporter.ts']));
		const file = join(workbook.root, 'learner/loop.ts');
		const text = readFileSync(file, 'utf8');
		writeFileSync(file, `${text}\n// edited\n`);
		try {
			const after = await built();
			expect(after).not.toBe(before);
			expect(existsSync(before)).toBe(false);
			expect(modules()).toEqual([after.split(/[\\/]/).pop()]);
		} finally {
			writeFileSync(file, text);
		}
	});
});

const npmRun = (script: string, builtConfig: '0' | '1', ...args: string[]) =>
	run(process.execPath, [`learner/${script}`, ...args], {
		cwd: workbook.root,
		env: { ...process.env, NO_COLOR: '1', LEARNER_BUILT_CONFIG: builtConfig },
		timeoutMs: 120_000
	});

describe('a learner run with the built config', () => {
	it.each([
		['npm-test.js', 'exercises/01'],
		['npm-test.js', 'exercises/01 -t delivery --bail 1'],
		['npm-test.js', 'exercises/01 --project nope'],
		['npm-progress.js', '']
	])('says exactly what a run with the .ts says: %s %s', { timeout: 240_000 }, async (script, given) => {
		const args = given.split(' ').filter(Boolean);
		const [bundled, inline] = [await npmRun(script, '0', ...args), await npmRun(script, '1', ...args)];
		expect(inline.code).toBe(bundled.code);
		const all = args.includes('--all');
		// A startup error's stack names the frames that started Vitest: its first lines are the words.
		const said = (output: string) => words(output, all).split('\n    at async ')[0];
		expect(said(inline.output)).toBe(said(bundled.output));
		expect(inline.output.length).toBeGreaterThan(0);
	});
});
