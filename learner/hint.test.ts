import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { LearnerError } from './args.ts';
import { hint } from './hint.ts';
import { hintsFile, readHints } from '../lib/hints.ts';
import { tempWorkbook } from './temp-workbook.ts';

describe('npm run hint, on a copy of the workbook', () => {
	let workbook: ReturnType<typeof tempWorkbook>;
	beforeEach(() => (workbook = tempWorkbook()));
	afterEach(() => workbook.remove());
	const withHints = exercises().find((e) => existsSync(join(workbookRoot, hintsFile(e))))!;

	it('shows one more hint each time, then all of them again and where the solution is', () => {
		const hints = readHints(workbook.root, withHints);
		for (const [i, expected] of hints.entries()) {
			const shown = hint(workbook.root, withHints.id);
			expect(shown).toContain(`Hint ${i + 1} of ${hints.length}: ${expected.title}`);
			expect(shown).not.toContain(`Hint ${i + 2} of`);
		}
		const again = hint(workbook.root, withHints.id);
		expect(again).toContain(`You have seen all ${hints.length} hints`);
		expect(again).toContain(`solutions/${withHints.folder}/`);
		const state = JSON.parse(readFileSync(join(workbook.root, '.learner', 'hints-shown.json'), 'utf8'));
		expect(state).toEqual({ [withHints.id]: hints.length });
	});
	it('--all shows every hint at once, and --again starts over from the first', () => {
		const hints = readHints(workbook.root, withHints);
		const all = hint(workbook.root, withHints.id, { all: true });
		for (const [i, expected] of hints.entries())
			expect(all).toContain(`Hint ${i + 1} of ${hints.length}: ${expected.title}`);
		expect(all).toContain(`npm run hint -- ${withHints.id} --again`);
		const over = hint(workbook.root, withHints.id, { again: true });
		expect(over).toContain(`Hint 1 of ${hints.length}`);
		expect(over).not.toContain('Hint 2 of');
		expect(hint(workbook.root, withHints.id)).toContain(`Hint 2 of ${hints.length}`);
	});
	it("keeps the Go track's count, which is its own, in the same file", () => {
		const memory = join(workbook.root, '.learner', 'hints-shown.json');
		hint(workbook.root, withHints.id);
		writeFileSync(memory, JSON.stringify({ [`go:${withHints.id}`]: 2, [withHints.id]: 1 }));
		expect(hint(workbook.root, withHints.id)).toContain('Hint 2 of');
		hint(workbook.root, withHints.id, { again: true });
		expect(JSON.parse(readFileSync(memory, 'utf8'))).toEqual({
			[`go:${withHints.id}`]: 2,
			[withHints.id]: 1
		});
	});
	it('starts over from the first hint when the memory file is damaged', () => {
		hint(workbook.root, withHints.id);
		writeFileSync(join(workbook.root, '.learner', 'hints-shown.json'), '{ "01": ');
		expect(hint(workbook.root, withHints.id)).toContain('Hint 1 of');
	});
	it('says plainly when an exercise has no hints yet', () => {
		rmSync(join(workbook.root, hintsFile(withHints)));
		expect(() => hint(workbook.root, withHints.id)).toThrow(LearnerError);
		expect(() => hint(workbook.root, withHints.id)).toThrow(/has no hints yet .*README\.md/);
	});
});
