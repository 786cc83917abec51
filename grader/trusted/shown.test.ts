// Learner text in the instructor's files: one line each, and no cell a spreadsheet would compute.
import { describe, expect, it } from 'vitest';
import { csvCell, firstLine, oneLine } from './shown.ts';

describe('oneLine', () => {
	it('writes every line break, control and format character so it can be read', () => {
		expect(oneLine('alice\n  02: 0 for this exercise\r\tx')).toBe('alice\\n  02: 0 for this exercise\\r\\tx');
		expect(oneLine('\u001b[2Jgone \u202eevil\u2028\ufeff')).toBe(
			'\\u{1b}[2Jgone \\u{202e}evil\\u{2028}\\u{feff}'
		);
		expect(oneLine('josé ✔ 3/10')).toBe('josé ✔ 3/10');
	});
});

describe('csvCell', () => {
	it('neutralises a cell that starts like a formula, and keeps it on one line', () => {
		for (const start of ['=', '+', '-', '@']) expect(csvCell(`${start}2+5`)).toBe(`'${start}2+5`);
		expect(csvCell('\tcmd')).toBe("'\\tcmd");
		expect(csvCell('\r=1')).toBe("'\\r=1");
		expect(csvCell('a\nb,"c"')).toBe('"a\\nb,""c"""');
		expect(csvCell(-3)).toBe('-3');
		expect(csvCell('alice')).toBe('alice');
	});
});

describe('firstLine', () => {
	it('quotes the first line of a message that has words, and nothing of the lines after it', () => {
		expect(firstLine('\n  Expected 1\nreceived 2')).toBe('Expected 1');
		expect(firstLine('one line')).toBe('one line');
		expect(firstLine(' \n\t\n')).toBe('');
	});
});
