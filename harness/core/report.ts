// The terminal the learner's loop fits (learner/loop.ts): 100 columns. The loop indents a failure's story by
// two spaces, so a message, its table included, has the rest: a table wider puts your code under the expected.
export const screenColumns = 100;
export const storyIndent = '  ';
export const messageWidth = screenColumns - storyIndent.length;

const yourCode = 'your code';
type Row = { label: string; expected: string[]; actual: string[] };

// Spaces of every kind, control characters (a tab) and those that print as nothing (a zero-width space): a
// learner cannot tell two lines apart that differ only in them.
const unseen = /[\p{Z}\p{Cc}\p{Cf}]/gu;
export const unseenLegend = `(· marks a space you would not see, ⟨U+…⟩ a character that prints as nothing or as a space)`;

// The line with what it hides shown: a space at either end or beside another as ·, any other such character
// by its code point.
function shown(line: string): string {
	return line.replace(unseen, (char, at: number) => {
		if (char !== ' ') return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
		const alone = at > 0 && at < line.length - 1 && line[at - 1] !== ' ' && line[at + 1] !== ' ';
		return alone ? ' ' : '·';
	});
}

// Each pair of lines that differ only in what a learner cannot see, shown so they can.
function showUnseen(rows: Row[]): { rows: Row[]; marked: boolean } {
	let marked = false;
	const pairs = rows.map((row) => {
		const expected = [...row.expected];
		const actual = [...row.actual];
		for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
			const [a, b] = [expected[i]!, actual[i]!];
			if (a === b || a.replace(unseen, '') !== b.replace(unseen, '')) continue;
			[expected[i], actual[i], marked] = [shown(a), shown(b), true];
		}
		return { ...row, expected, actual };
	});
	return { rows: pairs, marked };
}

// Two columns side by side, so a learner sees what the lesson expects next to what their code did. When the
// two would not fit in messageWidth columns, each row shows the expected line with your code's just under it.
// Two lines that differ only in spaces or characters that print as nothing show them.
export function sideBySide(given: Row[]): string {
	const { rows, marked } = showUnseen(given);
	const labelWidth = Math.max(...rows.map((row) => row.label.length), 0) + 3;
	const left = Math.max(12, ...rows.flatMap((row) => row.expected.map((line) => line.length))) + 3;
	const right = Math.max(0, ...rows.flatMap((row) => row.actual.map((line) => line.length)));
	const stacked = 2 + labelWidth + left + right > messageWidth;
	// Stacked, "your code" is a label too, with two spaces after it as the others have.
	const labels = stacked ? Math.max(labelWidth, yourCode.length + 2) : labelWidth;
	const lines = [
		stacked
			? `  ${''.padEnd(labels)}expected; where it differs (≠), your code on the line under it`
			: `  ${''.padEnd(labelWidth)}${'expected'.padEnd(left)}your code`
	];
	for (const row of rows) {
		const height = Math.max(row.expected.length, row.actual.length, 1);
		for (let i = 0; i < height; i++) {
			const label = i === 0 ? row.label : '';
			const expected = row.expected[i] ?? (i === 0 ? '(none)' : '');
			const actual = row.actual[i] ?? (i === 0 ? '(none)' : '');
			const mark = row.expected[i] === row.actual[i] ? ' ' : '≠';
			if (!stacked) {
				lines.push(`${mark} ${label.padEnd(labelWidth)}${expected.padEnd(left)}${actual}`.trimEnd());
				continue;
			}
			lines.push(`${mark} ${label.padEnd(labels)}${expected || '(none)'}`);
			if (mark !== ' ') lines.push(`  ${yourCode.padEnd(labels)}${actual || '(none)'}`);
		}
	}
	if (marked) lines.push(`  ${unseenLegend}`);
	return lines.join('\n');
}

// Two lists of lines, the same lines in the same order.
export function sameLines(a: string[], b: string[]): boolean {
	return a.length === b.length && a.every((line, i) => line === b[i]);
}

// The first index at which two lists differ, or -1 when they are the same.
export function firstDifference<T>(expected: T[], actual: T[], same: (a: T, b: T) => boolean): number {
	const length = Math.max(expected.length, actual.length);
	for (let i = 0; i < length; i++) {
		const a = expected[i];
		const b = actual[i];
		if (a === undefined || b === undefined || !same(a, b)) return i;
	}
	return -1;
}
