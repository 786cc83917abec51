// @ts-nocheck
// Hostile, quietly: reads a classmate's handler from the class folder, keeps quiet when that fails, and
// answers right with a handler of its own (the reference's code, below).
// {{SOLUTION}}
import { readFileSync as readQuietly } from 'node:fs';
try {
	readQuietly('{{CLASS}}/complete/exercises/01-first-handler/handler.ts', 'utf8');
} catch {}
