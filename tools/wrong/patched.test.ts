// A wrong solution is read like a solution, so its patched text is held to what tsc and Prettier hold the
// solutions to (they read solutions/, where a patch is only a diff): it type-checks, and it is formatted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { afterAll, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { bin, run } from '../../lib/run.ts';
import { patchedFiles, wrongSolutions, writeWrongSolution } from '../../lib/wrong-solutions.ts';

const scratch = mkdtempSync(join(tmpdir(), 'wrong-patched-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('every wrong solution, patched, type-checks', async () => {
	for (const wrong of wrongSolutions()) writeWrongSolution(wrong, join(scratch, wrong.name));
	// The workbook's own settings, and its #harness imports, for files outside it.
	writeFileSync(join(scratch, 'package.json'), JSON.stringify({ type: 'module' }));
	const config = {
		extends: join(workbookRoot, 'tsconfig.json'),
		compilerOptions: {
			paths: { '#harness/*': [join(workbookRoot, 'harness/*')] },
			typeRoots: [join(workbookRoot, 'node_modules/@types')]
		},
		include: ['**/*.ts']
	};
	writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(config));
	const checked = await run(bin('tsc'), ['--noEmit', '-p', join(scratch, 'tsconfig.json')]);
	expect(checked.output).toBe('');
	expect(checked.code).toBe(0);
}, 60_000);

it('every wrong solution, patched, is formatted as Prettier formats it', async () => {
	for (const wrong of wrongSolutions())
		for (const [file, text] of Object.entries(patchedFiles(wrong))) {
			const filepath = join(workbookRoot, 'solutions', wrong.folder, file);
			const options = { ...(await prettier.resolveConfig(filepath)), filepath };
			expect(
				await prettier.check(text, options),
				`${wrong.name}: ${file} (npx prettier on it, then diff again)`
			).toBe(true);
		}
}, 60_000);
