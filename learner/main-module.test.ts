import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { isMain } from '../lib/main-module.ts';
import { bin } from '../lib/run.ts';
import { tempWorkbook } from './temp-workbook.ts';

// A learner's checkout may lie under a folder whose name has a space and a letter such as é.
const odd = 'my work é';

describe('a command knows it is the script that was run, wherever the workbook lies', () => {
	const folder = mkdtempSync(join(tmpdir(), `${odd}-`));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('in a folder with a space and é in its name, and through a link, and not in a module it imports', () => {
		const script = join(folder, 'hint.ts');
		writeFileSync(script, '');
		mkdirSync(join(folder, 'linked'));
		symlinkSync(script, join(folder, 'linked', 'hint.ts'));
		expect(isMain(pathToFileURL(script).href, script)).toBe(true);
		expect(isMain(pathToFileURL(script).href, join(folder, 'linked', 'hint.ts'))).toBe(true);
		expect(isMain(pathToFileURL(join(folder, 'args.ts')).href, script)).toBe(false);
		expect(isMain(pathToFileURL(script).href, undefined)).toBe(false);
	});

	it('npm run hint -- 01 shows a hint from a copy under such a folder', () => {
		const workbook = tempWorkbook(odd);
		try {
			const ran = spawnSync(bin('tsx'), ['learner/hint.ts', '01'], { cwd: workbook.root, encoding: 'utf8' });
			expect(ran.stderr).toBe('');
			expect(ran.stdout).toContain('Hint 1 of');
			expect(ran.status).toBe(0);
		} finally {
			workbook.remove();
		}
	});

	it('every script of the workbook asks isMain: none compares its own URL with the path it was started as', () => {
		const files = execFileSync('git', ['ls-files', '*.ts', '*.js', '*.mjs'], {
			cwd: workbookRoot,
			encoding: 'utf8'
		})
			.split('\n')
			.filter(Boolean);
		const byHand = /^(?!\s*\/\/).*import\.meta\.url.*process\.argv\[1\]/m;
		const found = files.filter((file) => byHand.test(readFileSync(join(workbookRoot, file), 'utf8')));
		expect(found, 'use isMain(import.meta.url) from lib/main-module.ts').toEqual([]);
	});
});
