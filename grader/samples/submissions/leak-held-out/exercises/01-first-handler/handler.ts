// @ts-nocheck
// Hostile: puts the held-out checks' source, and whatever else of the grader it finds, into its error message.
import { readFileSync } from 'node:fs';
const tryRead = (file: string) => {
	try {
		return readFileSync(file, 'utf8');
	} catch (error) {
		return `(${error.code})`;
	}
};
const found = [
	'{{ROOT}}/grader/checks/01-first-handler.held.ts',
	'/wb/grader/checks/01-first-handler.held.ts',
	'/wb/checks/01-first-handler.held.ts',
	'{{ROOT}}/grader/trusted/expect.ts'
].map(tryRead);
export class TicketHandler {
	handle() {
		throw new Error(`LEAK ${found.join(' ')}`);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
