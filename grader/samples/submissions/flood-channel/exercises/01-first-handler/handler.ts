// @ts-nocheck
// Hostile: floods the grader's channel with 64 MB.
import { writeSync } from 'node:fs';
const chunk = Buffer.alloc(1024 * 1024, 'x');
for (let i = 0; i < 64; i++) writeSync(3, chunk);
export class TicketHandler {}
