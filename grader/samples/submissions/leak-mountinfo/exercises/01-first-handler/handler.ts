// @ts-nocheck
// Hostile: reads its own /proc/self/mountinfo, where every bind of the sandbox names its source on the host
// (the grader's checkout, its temporary folders), and puts it in its error message.
import { readFileSync } from 'node:fs';
const mounts = readFileSync('/proc/self/mountinfo', 'utf8');
export class TicketHandler {
	handle() {
		throw new Error(`LEAK ${mounts}`);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
