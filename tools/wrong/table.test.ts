// MAINTAINERS.md's table of wrong solutions says what the patches' headers say: a row for every patch and
// no other, each with its exercise, and "caught by" words of the test its header names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { wrongSolutions } from '../../lib/wrong-solutions.ts';

type Row = { name: string; exercise: string; caughtBy: string };

// The rows of the table in the section "Wrong solutions must fail".
function tableRows(): Row[] {
	const text = readFileSync(join(workbookRoot, 'MAINTAINERS.md'), 'utf8');
	const section = text.slice(text.indexOf('### Wrong solutions must fail'));
	return section
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.map((line) => {
			const [name = '', exercise = '', , caughtBy = ''] = line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim());
			return { name: name.replaceAll('`', ''), exercise, caughtBy };
		});
}

// "property: … every committed ticket" is in the test's name when its pieces are, in that order.
const inOrder = (pieces: string, name: string) =>
	pieces.trim() !== '' &&
	new RegExp(
		pieces
			.split('…')
			.map((piece) => piece.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
			.join('.*')
	).test(name);

it("MAINTAINERS.md's table has a row for every patch, with its exercise and words of its test", () => {
	const rows = tableRows();
	const wrongs = wrongSolutions();
	expect(rows.map((row) => row.name).sort()).toEqual(wrongs.map((wrong) => wrong.name).sort());
	for (const wrong of wrongs) {
		const row = rows.find((r) => r.name === wrong.name)!;
		expect(row.exercise, wrong.name).toBe(wrong.exercise);
		expect(inOrder(row.caughtBy, wrong.test), `${wrong.name}: "${row.caughtBy}" in "${wrong.test}"`).toBe(
			true
		);
	}
});
