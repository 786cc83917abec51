// @ts-nocheck
// Hostile: plays the observer itself, on the inputs in job.json, with the reference's handler (below), writes
// the observations the grader wants on its channel, and a last "done", then kills itself before the observer
// has written a line: every point would be for answers the observer never saw.
// {{SOLUTION}}
import { readFileSync, writeSync } from 'node:fs';
import { observers } from '/wb/inside/01-first-handler.observe.js';
const job = JSON.parse(readFileSync('/wb/job.json', 'utf8'));
for (const [c, check] of job.checks.entries())
	for (const [i, input] of check.cases.entries()) {
		const ok = observers[check.observer]({ 'handler.ts': { TicketHandler } }, input);
		writeSync(3, `${JSON.stringify({ c, i, ok })}\n`);
	}
writeSync(3, `${JSON.stringify({ done: true })}\n`);
process.kill(process.pid, 'SIGKILL');
