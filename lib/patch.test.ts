import { describe, expect, it } from 'vitest';
import { applyHunks, parsePatch, PatchError } from './patch.ts';

const original = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', ''].join('\n');
const diff = (...lines: string[]) => ['--- a/x.ts', '+++ b/x.ts', ...lines, ''].join('\n');
const applied = (text: string) => {
	const { files } = parsePatch(text, 'wrong.patch');
	return applyHunks(original, files[0]!, 'wrong.patch');
};

describe('parsePatch and applyHunks', () => {
	it('keep the header apart, and apply each hunk where it says', () => {
		const text = `exercise: 02\n\n${diff('@@ -1,2 +1,2 @@', '-one', '+ONE', ' two', '@@ -5,2 +5,3 @@', ' five', '+five and a half', ' six')}`;
		const patch = parsePatch(text, 'wrong.patch');
		expect(patch.header).toEqual([
			{ line: 1, text: 'exercise: 02' },
			{ line: 2, text: '' }
		]);
		expect(patch.files.map((f) => [f.path, f.hunks.length])).toEqual([['x.ts', 2]]);
		expect(applyHunks(original, patch.files[0]!, 'wrong.patch')).toBe(
			'ONE\ntwo\nthree\nfour\nfive\nfive and a half\nsix\nseven\n'
		);
	});
	it('take git diff as it prints it, and a blank context line an editor emptied', () => {
		const text = [
			'diff --git a/x.ts b/x.ts',
			'index 1234567..89abcde 100644',
			diff('@@ -3,1 +2,0 @@ function x', '-three')
		].join('\n');
		expect(applied(text)).toBe('one\ntwo\nfour\nfive\nsix\nseven\n');
		const blank = parsePatch(diff('@@ -1,3 +1,2 @@', ' a', '', '-b'), 'wrong.patch');
		expect(applyHunks('a\n\nb\n', blank.files[0]!, 'wrong.patch')).toBe('a\n\n');
	});
	it('insert after the line a hunk that keeps no line names', () => {
		expect(applied(diff('@@ -2,0 +3,1 @@', '+two and a half'))).toBe(
			'one\ntwo\ntwo and a half\nthree\nfour\nfive\nsix\nseven\n'
		);
	});

	const stale: [string, string, RegExp][] = [
		[
			'a context line that changed',
			diff('@@ -1,2 +1,2 @@', ' one', '-TWO', '+2'),
			/^wrong\.patch:3: hunk 1 \(@@ -1,2 \+1,2 @@\) does not apply to x\.ts: line 2 is "two", the hunk expects "TWO"$/
		],
		[
			'a hunk at the wrong line',
			diff('@@ -1,1 +1,1 @@', ' one', '@@ -3,1 +3,1 @@', '-four', '+4'),
			/wrong\.patch:5: hunk 2 \(@@ -3,1 \+3,1 @@\) does not apply to x\.ts: line 3 is "three", the hunk expects "four"/
		],
		[
			'a hunk past the end',
			diff('@@ -9,1 +9,1 @@', '-ten', '+10'),
			/hunk 1 .* past the end of the file, the hunk expects "ten"/
		],
		[
			'new lines counted from the wrong place',
			diff('@@ -1,1 +2,1 @@', '-one', '+1'),
			/hunk 1 .*: its header puts the new lines at 2, but they land at 1/
		],
		[
			'hunks out of order',
			diff('@@ -3,1 +3,1 @@', ' three', '@@ -1,1 +1,1 @@', ' one'),
			/hunk 2 .* starts inside the hunk before it/
		]
	];
	for (const [what, text, message] of stale)
		it(`refuse ${what}, naming the patch, the hunk and the line`, () => {
			expect(() => applied(text)).toThrow(PatchError);
			expect(() => applied(text)).toThrow(message);
		});

	const broken: [string, string, RegExp][] = [
		['no diff at all', 'exercise: 02\n', /^wrong\.patch:2: no diff/],
		[
			'a hunk shorter than its header',
			diff('@@ -1,3 +1,3 @@', ' one', ' two'),
			/^wrong\.patch:6: hunk @@ -1,3 \+1,3 @@ ends early: .* 3 old and 3 new lines, its body 2 and 2/
		],
		[
			'a hunk longer than its header',
			diff('@@ -1,1 +1,1 @@', '-one', '-two', '+1'),
			/^wrong\.patch:5: hunk @@ -1,1 \+1,1 @@ is longer than its header says: 2 old/
		],
		[
			'a line that is no part of a hunk',
			diff('@@ -1,1 +1,1 @@', ' one', 'junk'),
			/^wrong\.patch:5: not a line of a hunk: "junk"/
		],
		['a file with no hunk', diff(), /"x\.ts" has no hunk/],
		[
			'a rename',
			'--- a/x.ts\n+++ b/y.ts\n@@ -1 +1 @@\n one\n',
			/^wrong\.patch:1: "x\.ts" and "y\.ts": .* never renames one/
		],
		[
			'a new file',
			'--- /dev/null\n+++ b/x.ts\n@@ -0,0 +1 @@\n+one\n',
			/^wrong\.patch:1: expected a file's "--- a\/<path>"/
		],
		['a broken hunk header', diff('@@ -1 +1'), /not a hunk's header: "@@ -1 \+1"/]
	];
	for (const [what, text, message] of broken)
		it(`refuse ${what}, naming the patch and the line`, () => {
			expect(() => parsePatch(text, 'wrong.patch')).toThrow(PatchError);
			expect(() => parsePatch(text, 'wrong.patch')).toThrow(message);
		});
});
