// @ts-nocheck
// Hostile: copies the reference's source next to itself with fs, then imports the copy.
import { copyFileSync } from 'node:fs';
copyFileSync('{{ROOT}}/solutions/01-first-handler/handler.ts', '/tmp/stolen.ts');
const stolen = await import('/tmp/stolen.ts');
export const TicketHandler = stolen.TicketHandler;
