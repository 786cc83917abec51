// @ts-nocheck
// Hostile, in a batch: exercise 01 is the reference's code, and leaves a timer that waits for exercise 07 to load
// (07's status.ts says so), long after 01 is done, and then tries to read /proc/1/environ. Alone, 07 never loads in 01's run.
import { readFileSync as readLate } from 'node:fs';
// {{SOLUTION}}
const late = setInterval(() => {
	if (!globalThis.lateSignal) return;
	clearInterval(late);
	try {
		readLate('/proc/1/environ', 'utf8');
	} catch {}
}, 1);
