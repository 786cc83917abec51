// @ts-nocheck
// Hostile: breaks the reference solution and the harness, to change the expectations of everyone after it.
import { writeFileSync } from 'node:fs';
for (const file of ['{{ROOT}}/solutions/01-first-handler/handler.ts', '/wb/harness/core/model.js'])
	try {
		writeFileSync(file, 'export {}');
	} catch (error) {
		throw new Error(`could not write ${file.split('/').slice(-2).join('/')}: ${error.code}`);
	}
export class TicketHandler {}
