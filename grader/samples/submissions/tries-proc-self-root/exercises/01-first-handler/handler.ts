// @ts-nocheck
// Hostile, quietly: reads the first process's environment through /proc/self/root (a link to the root that a
// rule matching paths by name would take for the process's own /proc), and answers right.
// {{SOLUTION}}
import { readFileSync as readThrough } from 'node:fs';
try {
	readThrough('/proc/self/root/proc/1/environ', 'utf8');
} catch {}
