// The learner's config built to JavaScript (built-config.js): built once for each content of the files it reads,
// built again when one of them changes, and a run with it says exactly what a run with the .ts says; with a
// Vitest whose files moved, a run says so in one line, and then what the run with the .ts says.
import {
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
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

// The workbook's node_modules as links, but for one file of Vitest's that reads as an upgrade would have it:
// cli.js no longer imports its command line from where built-config.js looks.
function vitestMoved(root: string): void {
	const real = realpathSync(join(root, 'node_modules'));
	rmSync(join(root, 'node_modules'));
	const linked = (from: string, to: string, except: string, inside: (path: string) => void) => {
		mkdirSync(to);
		for (const entry of readdirSync(from))
			if (entry === except) inside(join(to, entry));
			else symlinkSync(join(from, entry), join(to, entry));
	};
	linked(real, join(root, 'node_modules'), 'vitest', (vitest) =>
		linked(join(real, 'vitest'), vitest, 'dist', (dist) =>
			linked(join(real, 'vitest', 'dist'), dist, 'cli.js', (cli) =>
				writeFileSync(
					cli,
					readFileSync(join(real, 'vitest', 'dist', 'cli.js'), 'utf8').replaceAll('createCLI', 'makeCli')
				)
			)
		)
	);
}

describe('a learner run with a Vitest whose files moved', () => {
	it('says so in one line, and then exactly what a run with the .ts says', { timeout: 240_000 }, async () => {
		const moved = tempWorkbook();
		try {
			vitestMoved(moved.root);
			expect(lstatSync(join(moved.root, 'node_modules')).isSymbolicLink()).toBe(false);
			const inMoved = (builtConfig: '0' | '1') =>
				run(process.execPath, ['learner/npm-test.js', 'exercises/01'], {
					cwd: moved.root,
					env: { ...process.env, NO_COLOR: '1', LEARNER_BUILT_CONFIG: builtConfig },
					timeoutMs: 120_000
				});
			const [bundled, fallen] = [await inMoved('0'), await inMoved('1')];
			const said =
				"learner/built-config.js: Vitest's files are not where it looks (node_modules/vitest/dist/cli.js imports no createCLI from ./chunks/cac.*.js); running the config through Vite instead.";
			expect(bundled.output).not.toContain('built-config.js');
			expect(fallen.output.split('\n').filter((line) => line.includes('built-config.js'))).toEqual([said]);
			expect(fallen.code).toBe(bundled.code);
			expect(words(fallen.output.replace(`${said}\n`, ''), false)).toBe(words(bundled.output, false));
		} finally {
			moved.remove();
		}
	});
});
