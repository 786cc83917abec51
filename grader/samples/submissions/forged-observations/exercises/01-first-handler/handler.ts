// @ts-nocheck
// Hostile: writes "passed" observations on the grader's channel itself, for every case it can guess.
import { writeSync } from 'node:fs';
for (let c = 0; c < 40; c++)
	for (let i = 0; i < 40; i++) writeSync(3, `${JSON.stringify({ c, i, ok: null })}\n`);
export class TicketHandler {
	handle() {
		return { kind: 'created', ticketId: 1 };
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
