// @ts-nocheck
// Hostile, in a batch: exercise 04 writes on the grader's channel as it loads (a begin line of its own, then
// answers), and is the reference's code for the rest.
import { writeSync } from 'node:fs';
writeSync(3, `${JSON.stringify({ begin: 4, heldOut: false })}\n`);
for (let i = 0; i < 40; i++) writeSync(3, `${JSON.stringify({ c: 0, i, ok: null })}\n`);
// {{SOLUTION}}
