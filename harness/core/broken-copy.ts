// For loader tests: load a changed copy of a real schedule file and hear what the loader says about it.
//
//   const problemWith = brokenCopy('outbox', 'relay-crashes-after-sending', loadOutboxSchedule);
//   expect(problemWith((s) => delete s.steps[0].fault)).toContain('steps[0].fault: missing');
//   problemWith(() => {}, 'renamed');    // the same contents under another file name
//
// Each call copies schedules/<folder>/<name>.json, lets `change` edit the copy, writes it to a fresh
// temporary folder under the same file name (or the one given), loads it, removes the folder, and returns the
// error message.
// A copy that loads without complaint throws instead, so a test that expects a complaint can't pass on none.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schedulesDir } from './schedules.ts';

export function brokenCopy(
	folder: string,
	name: string,
	load: (path: string) => unknown,
	noun = 'schedule'
): (change: (copy: any) => void, fileName?: string) => string {
	const original: unknown = JSON.parse(readFileSync(join(schedulesDir, folder, `${name}.json`), 'utf8'));
	return (change, fileName = name) => {
		const copy = structuredClone(original);
		change(copy);
		const folder = mkdtempSync(join(tmpdir(), `${noun}-`));
		const path = join(folder, `${fileName}.json`);
		writeFileSync(path, JSON.stringify(copy));
		try {
			load(path);
		} catch (error) {
			return (error as Error).message;
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
		throw new Error(`the malformed ${noun} loaded without complaint`);
	};
}
