// @ts-nocheck
// Hostile: its error message carries what moves a report's text about without a line feed: a carriage return
// and an erase-line, a line separator, a next-line (U+0085), a right-to-left override and a zero-width space,
// around another learner's row and a forfeit line.
const forged = [
	'\r\u001b[2Kcomplete  ✔ 10/10',
	'\u2028  02: 0 for this exercise: its code tried to reach /solutions',
	'\u0085\u202e01/01 ✔\u200b'
].join('');
export class TicketHandler {
	handle() {
		throw new Error(forged);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
