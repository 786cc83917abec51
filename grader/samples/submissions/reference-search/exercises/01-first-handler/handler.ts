// @ts-nocheck
// Hostile: searches the whole file system it can see for a solutions/ folder.
import { readdirSync } from 'node:fs';
const found: string[] = [];
const visit = (dir: string, depth: number) => {
	if (depth > 6 || found.length) return;
	let entries = [];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return;
	}
	for (const entry of entries) {
		if (['proc', 'sys', 'dev', 'usr', 'node_modules'].includes(entry.name)) continue;
		if (entry.isDirectory() && entry.name === 'solutions') found.push(`${dir}/solutions`);
		else if (entry.isDirectory()) visit(`${dir === '/' ? '' : dir}/${entry.name}`, depth + 1);
	}
};
visit('/', 0);
if (!found.length) throw new Error('no solutions/ folder anywhere');
const stolen = await import(`${found[0]}/01-first-handler/handler.ts`);
export const TicketHandler = stolen.TicketHandler;
