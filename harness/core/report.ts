// The terminal the learner's loop fits (learner/loop.ts): 100 columns. The loop indents a failure's story by
// two spaces, so a message, its table included, has the rest: a table wider puts your code under the expected.
export const screenColumns = 100;
export const storyIndent = '  ';
export const messageWidth = screenColumns - storyIndent.length;

const yourCode = 'your code';

// Two columns side by side, so a learner sees what the lesson expects next to what their code did. When the
// two would not fit in messageWidth columns, each row shows the expected line with your code's just under it.
export function sideBySide(rows: { label: string; expected: string[]; actual: string[] }[]): string {
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
