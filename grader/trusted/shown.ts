// Learner text as the instructor's files show it: on one line, with nothing that moves the cursor, colours a
// terminal, turns the text around, or makes a spreadsheet compute. Folder names, file names and messages are
// all the learner's to choose, so report.txt and class.csv take every such string through these two.
//
//   oneLine('alice\n  02: 0 for this exercise')   // 'alice\\n  02: 0 for this exercise': no forged line
//   csvCell('=2+5')                              // "'=2+5": text, never a formula
//   firstLine('\n  Expected 1\nreceived 2')      // 'Expected 1': a message's first line with words
//
// Control characters (C0, DEL, C1), line and paragraph separators and the invisible format characters
// (bidirectional overrides, zero-width joiners, the BOM) are written as \n, \r, \t or \u{…}, so they can be read.

// eslint-disable-next-line no-control-regex
const unseen = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export const oneLine = (text: string) =>
	text.replace(unseen, (c) => named[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`);

// The first line of a message that has words, as an error or a judge's problem is quoted in one line.
export const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

// A spreadsheet reads a cell that starts with one of these as a formula (or, for tab and CR, strips them and
// reads what follows): OWASP's list for CSV injection.
const formulaStart = /^[=+\-@\t\r]/;

// A cell of class.csv: numbers as they are; text on one line, a leading formula character behind a "'",
// and quoted when it holds a comma or a quote.
export function csvCell(value: string | number): string {
	if (typeof value === 'number') return String(value);
	const text = formulaStart.test(value) ? `'${oneLine(value)}` : oneLine(value);
	return /[",]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
