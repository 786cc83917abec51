// @ts-nocheck
// Hostile: reads a classmate's handler straight from the class folder.
import { readFileSync, writeFileSync } from 'node:fs';
writeFileSync('/tmp/theirs.ts', readFileSync('{{CLASS}}/complete/exercises/01-first-handler/handler.ts'));
const stolen = await import('/tmp/theirs.ts');
export const TicketHandler = stolen.TicketHandler;
