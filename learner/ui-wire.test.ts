// The UI's messages both ways (ui-wire.ts): what the page is sent names every file from the workbook, and what it
// sends back is handed to Vitest with the paths Vitest knows. learner/ui.test.ts checks the same on a real page.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { wire } from './ui-wire.ts';

// A workbook folder with one exercise file, and node_modules a link to a folder elsewhere.
const scratch = mkdtempSync(join(tmpdir(), 'ui-wire-'));
const workbook = join(scratch, 'my workbook "ü"');
const modules = join(scratch, 'elsewhere', 'node_modules');
mkdirSync(join(workbook, 'exercises', '01-first-handler'), { recursive: true });
mkdirSync(join(modules, 'fast-check'), { recursive: true });
writeFileSync(join(workbook, 'exercises', '01-first-handler', 'handler.ts'), '');
symlinkSync(modules, join(workbook, 'node_modules'), 'dir');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const handler = join(workbook, 'exercises', '01-first-handler', 'handler.ts');
// A message as birpc sends it through flatted: an object of references, then every string on its own.
const message = (...strings: string[]) => JSON.stringify([{ m: '1', a: '2' }, 'onCollected', ...strings]);

describe("the UI's messages", () => {
	it('sent to the page: every path from the workbook, the workbook itself ".", none of its folders', () => {
		const paths = wire(`${workbook}/`);
		const sent = paths.out(
			message(
				handler,
				workbook,
				`Error: not yet\n    at TicketHandler.handle (${handler}:14:10)\n    at ${pathToFileURL(join(modules, 'r.js')).href}:1:2`,
				join(modules, 'fast-check', 'lib.js'),
				'The acknowledgment is lost'
			)
		);
		expect(JSON.parse(sent)).toEqual([
			{ m: '1', a: '2' },
			'onCollected',
			'exercises/01-first-handler/handler.ts',
			'.',
			'Error: not yet\n    at TicketHandler.handle (exercises/01-first-handler/handler.ts:14:10)\n    at node_modules/r.js:1:2',
			'node_modules/fast-check/lib.js',
			'The acknowledgment is lost'
		]);
		expect(sent).not.toContain(scratch);
	});
	it('sent back by the page: the paths Vitest sent, as it sent them; a path in the workbook made absolute; words kept', () => {
		const paths = wire(`${workbook}/`);
		paths.out(message(join(modules, 'fast-check', 'lib.js')));
		const back = paths.in(
			message('node_modules/fast-check/lib.js', 'exercises/01-first-handler/handler.ts', '.', 'lost', '3')
		);
		expect(JSON.parse(back)).toEqual([
			{ m: '1', a: '2' },
			'onCollected',
			join(modules, 'fast-check', 'lib.js'),
			handler,
			workbook,
			'lost',
			'3'
		]);
	});
	it('a map by path (import durations): its keys from the workbook, and back', () => {
		const paths = wire(`${workbook}/`);
		const sent = paths.out(JSON.stringify([{ [handler]: '1' }, { total: 3 }]));
		expect(JSON.parse(sent)).toEqual([{ 'exercises/01-first-handler/handler.ts': '1' }, { total: 3 }]);
		expect(JSON.parse(paths.in(sent))).toEqual([{ [handler]: '1' }, { total: 3 }]);
	});
	it('a message that is not a list of values goes as it came', () => {
		const paths = wire(`${workbook}/`);
		expect(paths.in('not json')).toBe('not json');
		expect(paths.out(`{"file":${JSON.stringify(handler)}}`)).toBe(
			'{"file":"exercises/01-first-handler/handler.ts"}'
		);
	});
});
