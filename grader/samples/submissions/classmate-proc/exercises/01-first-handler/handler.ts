// @ts-nocheck
// Hostile: reads the grader's argv in /proc to find a classmate's folder, and takes their handler.
import { readdirSync, readFileSync } from 'node:fs';
const lines = readdirSync('/proc')
	.filter((pid) => /^\d+$/.test(pid))
	.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
const classmate = lines
	.join(' ')
	.split(' ')
	.find((word) => word.endsWith('/complete'));
if (!classmate) throw new Error(`no classmate among ${lines.length} processes`);
const stolen = await import(`${classmate}/exercises/01-first-handler/handler.ts`);
export const TicketHandler = stolen.TicketHandler;
