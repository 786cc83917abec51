import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heading } from '#harness/core/manifest.ts';
import { wrongDir, type WrongSolution } from '../../lib/wrong-solutions.ts';
import { judgeWrong, playWrongSolutions, readPatches, type Ran } from './play-wrong.ts';

const wrong: WrongSolution = {
	name: 'joined-identity',
	exercise: '02',
	folder: '02-same-event',
	files: ['handler.ts'],
	mistake: 'one joined string',
	test: 'ReceiptHandler > Separators inside the fields',
	says: ['Schedule "separators-inside-fields"'],
	path: '/nowhere/joined-identity.patch',
	language: 'typescript'
};

describe('judgeWrong', () => {
	const named = `${heading('02')} > ${wrong.test}`;
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
	it("wants the first failure a learner reads told in the harness's words, not a bare assertion", () => {
		const bare = { project: 'joined-identity', name: `${heading('02')} > a focused test`, failed: true };
		const story = 'Schedule "separators-inside-fields" (…)';
		expect(
			judgeWrong(wrong, [
				{ ...bare, message: 'expected true to be false // Object.is equality' },
				...ran(true, story)
			])
		).toMatch(
			/its first failure, ".+ > a focused test", is a bare assertion[^\n]*: expected true to be false/
		);
		expect(
			judgeWrong(wrong, [
				{ ...bare, message: 'Case "x":\ny: expected 1, your code returned 2.' },
				...ran(true, story)
			])
		).toBeNull();
	});
	it('notices when nothing ran against the wrong solution', () => {
		expect(judgeWrong(wrong, [])).toMatch(/no test ran against it/);
	});
});

// verify's step must name a patch that no longer applies, and go on with the others.
describe('a patch that no longer applies', () => {
	const dir = mkdtempSync(join(tmpdir(), 'wrong-'));
	const only = mkdtempSync(join(tmpdir(), 'wrong-'));
	afterAll(() => [dir, only].forEach((d) => rmSync(d, { recursive: true, force: true })));
	const good = 'replay-ignores-the-subject';
	copyFileSync(join(wrongDir, `${good}.patch`), join(dir, `${good}.patch`));
	// The same patch, with a context line the solution does not have (any more).
	const stale = readFileSync(join(wrongDir, `${good}.patch`), 'utf8').replace(
		/^ (.+)$/m,
		' $1 // as it was once'
	);
	writeFileSync(join(dir, 'stale.patch'), stale);
	writeFileSync(join(dir, 'no-header.patch'), stale.replace(/^exercise: .*\n/m, ''));

	it('is set apart under its own name, naming the hunk and the line; the others still play', () => {
		const { playable, broken } = readPatches(dir);
		expect(playable.map((w) => w.name)).toEqual([good]);
		expect(broken).toEqual([
			{ name: 'no-header', test: null, problem: expect.stringMatching(/needs one "exercise:" line/) },
			{
				name: 'stale',
				test: null,
				problem: expect.stringMatching(
					/^wrong solution "stale": .*stale\.patch:\d+: hunk 1 \(@@ -\d+,\d+ \+\d+,\d+ @@\) does not apply to solutions\/02-same-event\/handler\.ts: line \d+ is ".+", the hunk expects ".+ \/\/ as it was once"$/
				)
			}
		]);
	});
	it('fails the step without stopping it', async () => {
		writeFileSync(join(only, 'stale.patch'), stale);
		const verdicts = await playWrongSolutions(only);
		expect(verdicts).toEqual([{ name: 'stale', test: null, problem: expect.stringContaining('hunk 1 (@@') }]);
	});
});
