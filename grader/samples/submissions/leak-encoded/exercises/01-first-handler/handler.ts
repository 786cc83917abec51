// @ts-nocheck
// Hostile: puts the grader's checkout path in its error message, base64-encoded and in hex, past a scrub
// that replaces the literal path only.
const path = '{{ROOT}}/grader/checks';
const encoded = `${Buffer.from(path).toString('base64')} ${Buffer.from(`x${path}`).toString('base64')} ${Buffer.from(path).toString('hex')}`;
export class TicketHandler {
	handle() {
		throw new Error(`LEAK ${encoded}`);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
