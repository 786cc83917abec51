import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { judgeWrong, type Ran } from './play-wrong.ts';
import { wrongSolutions, type Located } from './wrong-solutions.ts';

const entry = {
	name: 'joined-identity',
	exercise: '02',
	files: ['handler.ts'],
	mistake: 'one joined string',
	test: 'ReceiptHandler > Separators inside the fields',
	says: ['Schedule "separators-inside-fields"']
};

describe('solutions/wrong/manifest.json', () => {
	const dirs: string[] = [];
	afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

	// A wrong/ folder with the given manifest entries and files.
	function folder(entries: unknown[], files: string[]): string {
		const dir = mkdtempSync(join(tmpdir(), 'wrong-'));
		dirs.push(dir);
		writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ wrong: entries }));
		for (const file of files) {
			mkdirSync(join(dir, file, '..'), { recursive: true });
			writeFileSync(join(dir, file), '');
		}
		return join(dir, 'manifest.json');
	}

	it('the real manifest lists every wrong solution folder, each with the files it names', () => {
		expect(wrongSolutions().length).toBeGreaterThan(0);
	});
	it('reads an entry and finds its exercise folder', () => {
		const [wrong] = wrongSolutions(folder([entry], ['joined-identity/02-same-event/handler.ts']));
		expect(wrong).toMatchObject({ ...entry, folder: '02-same-event' });
	});
	const bad: [string, unknown, string[], RegExp][] = [
		['a missing field', { ...entry, test: undefined }, [], /wrong\[0\]\.test: must be a non-empty string/],
		['an empty says', { ...entry, says: [] }, [], /wrong\[0\]\.says: must be a non-empty list/],
		['a misspelled field', { ...entry, mistakes: 'x' }, [], /wrong\[0\]\.mistakes: not a field here/],
		['an unknown exercise', { ...entry, exercise: '99' }, [], /wrong\[0\]\.exercise: no exercise "99"/],
		[
			'a file the learner does not edit',
			{ ...entry, files: ['handler.test.ts'] },
			[],
			/wrong\[0\]\.files\[0\]: "handler.test.ts" is not a learner file of 02-same-event/
		],
		['a listed file that is not there', entry, [], /wrong\[0\]\.files: missing .*02-same-event\/handler\.ts/],
		[
			'a file that is there but not listed',
			entry,
			['joined-identity/02-same-event/handler.ts', 'joined-identity/02-same-event/extra.ts'],
			/wrong\[0\]\.files: does not list .*extra\.ts/
		]
	];
	for (const [what, wrong, files, message] of bad) {
		it(`names the field for ${what}`, () => {
			expect(() => wrongSolutions(folder([wrong], files))).toThrow(message);
		});
	}
	it('names a wrong solution folder the manifest does not list', () => {
		expect(() => wrongSolutions(folder([], ['stray/02-same-event/handler.ts']))).toThrow(
			/solutions\/wrong\/stray\/ is not listed/
		);
	});
});

describe('judgeWrong', () => {
	const wrong: Located = { ...entry, folder: '02-same-event', dir: '/nowhere' };
	const named = `${heading('02')} > ${entry.test}`;
	const ran = (failed: boolean, message = ''): Ran[] => [
		{ project: 'joined-identity', name: named, failed, message },
		{ project: 'joined-identity', name: `${heading('02')} > another test`, failed: true, message: 'x' }
	];

	it('is satisfied when the named test fails saying every snippet', () => {
		expect(judgeWrong(wrong, ran(true, 'Schedule "separators-inside-fields" (…)'))).toBeNull();
	});
	it('calls a passing named test a gap, and says which tests did fail', () => {
		expect(judgeWrong(wrong, ran(false))).toMatch(
			/passes, but it is the test meant to catch[\s\S]*another test/
		);
	});
	it('wants the words, not just a failure', () => {
		expect(judgeWrong(wrong, ran(true, 'TypeError: boom'))).toMatch(
			/does not say "Schedule \\"separators-inside-fields\\""[\s\S]*TypeError: boom/
		);
	});
	it('lists the tests there are when the named one does not exist', () => {
		expect(judgeWrong({ ...wrong, test: 'no such test' }, ran(true))).toMatch(
			/no test named[\s\S]*another test/
		);
	});
	it('notices when nothing ran against the wrong solution', () => {
		expect(judgeWrong(wrong, [])).toMatch(/no test ran against it/);
	});
});
