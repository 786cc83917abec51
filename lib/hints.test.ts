// hints.md as the house wants it: headings split it, questions come first, and every shipped file is fit.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { hintProblems, hintsFile, parseHints, readHints } from './hints.ts';

describe('hints.md', () => {
	it('splits at "## " headings and drops what comes before the first', () => {
		const hints = parseHints(
			'<!-- for maintainers -->\n# Title\n\n## Why?\n\nBecause.\n\n## Answer: this\n\nDo this.\n'
		);
		expect(hints).toEqual([
			{ title: 'Why?', body: 'Because.' },
			{ title: 'Answer: this', body: 'Do this.' }
		]);
	});
	it('wants questions before answers, and words under every heading', () => {
		expect(hintProblems(parseHints('## Answer\nx\n## Why?\ny\n'))).toEqual([
			'the first hint, "Answer", is not a question',
			'hint 2, "Why?", is a question after an answer'
		]);
		expect(hintProblems(parseHints('## Why?\n## How?\nz\n'))).toContain(
			'hint 1, "Why?", has no text under its heading'
		);
	});
	for (const exercise of exercises())
		it(`${hintsFile(exercise)} is there, and fit to ship`, () => {
			expect(
				existsSync(join(workbookRoot, hintsFile(exercise))),
				`${hintsFile(exercise)}: npm run hint reads it`
			).toBe(true);
			expect(hintProblems(readHints(workbookRoot, exercise))).toEqual([]);
		});
});
