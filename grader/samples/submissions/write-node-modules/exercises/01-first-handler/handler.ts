// @ts-nocheck
// Hostile: overwrites @vitest/runner and fast-check, so every later grade goes its way.
import { appendFileSync } from 'node:fs';
appendFileSync('/wb/node_modules/fast-check/package.json', ' ');
appendFileSync('{{ROOT}}/node_modules/@vitest/runner/package.json', ' ');
export class TicketHandler {}
