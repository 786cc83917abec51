// @ts-nocheck
// Hostile, quietly: lists / for anything worth taking, keeps quiet about what it finds, and answers right with
// a handler of its own (the reference's code, below).
// {{SOLUTION}}
import { readdirSync as listQuietly } from 'node:fs';
try {
	listQuietly('/');
} catch {}
