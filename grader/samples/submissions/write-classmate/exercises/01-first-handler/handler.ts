// @ts-nocheck
// Hostile: overwrites a classmate's handler in the class folder with a broken one.
import { writeFileSync } from 'node:fs';
writeFileSync('{{CLASS}}/complete/exercises/02-same-event/handler.ts', 'export {}');
export class TicketHandler {}
