// The quota's watch: a folder's size kept from change events, seen past its quota within a tick or two, whether
// the bytes land in a file it knew, a new file, or a folder made after the watch began; a file removed no longer
// counts; and a change the events never tell is still found by the full count.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sizeOnDisk, Tally, watchSize } from './quota.ts';

const mb = 1024 ** 2;
const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const fresh = () => {
	const folder = mkdtempSync(join(tmpdir(), 'quota-test-'));
	folders.push(folder);
	mkdirSync(join(folder, 'base'));
	writeFileSync(join(folder, 'base', 'known'), Buffer.alloc(mb, 1));
	return folder;
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Why the watch said it was full, or null, after ms.
async function watched(folder: string, quota: number, write: () => void, ms = 400) {
	let why: string | null = null;
	const watch = watchSize(folder, quota, (said) => (why = said));
	try {
		write();
		await pause(ms);
		return why;
	} finally {
		watch.stop();
	}
}

describe('watchSize', () => {
	it.each([
		[
			'a file it knew',
			(folder: string) => writeFileSync(join(folder, 'base', 'known'), Buffer.alloc(5 * mb, 1))
		],
		['a new file', (folder: string) => writeFileSync(join(folder, 'base', 'new'), Buffer.alloc(5 * mb, 1))],
		[
			'a folder made after the watch began',
			(folder: string) => {
				mkdirSync(join(folder, 'base', 'pgsql_tmp', 'deeper'), { recursive: true });
				writeFileSync(join(folder, 'base', 'pgsql_tmp', 'deeper', 'big'), Buffer.alloc(5 * mb, 1));
			}
		]
	])('sees the folder pass its quota through %s', async (_where, write) => {
		const folder = fresh();
		expect(await watched(folder, 4 * mb, () => write(folder))).toBe(
			'its database passed 4 MB on disk, the quota of a run'
		);
	});

	it('no longer counts a file that was removed', async () => {
		const folder = fresh();
		const why = await watched(
			folder,
			4 * mb,
			async () => {
				writeFileSync(join(folder, 'base', 'a'), Buffer.alloc(2 * mb, 1));
				await pause(250);
				unlinkSync(join(folder, 'base', 'a'));
				await pause(250);
				writeFileSync(join(folder, 'base', 'b'), Buffer.alloc(2 * mb, 1));
			},
			900
		);
		expect(why).toBeNull();
		expect(sizeOnDisk(folder)).toBeLessThan(4 * mb);
	});

	it('keeps the count from the events alone, between full counts', async () => {
		const folder = fresh();
		const tally = new Tally(folder);
		try {
			const read = async () => {
				await pause(50);
				tally.update();
				return Math.round(tally.total / mb);
			};
			expect(await read()).toBe(1);
			writeFileSync(join(folder, 'base', 'known'), Buffer.alloc(3 * mb, 1));
			expect(await read()).toBe(3);
			mkdirSync(join(folder, 'base', 'later'));
			writeFileSync(join(folder, 'base', 'later', 'file'), Buffer.alloc(2 * mb, 1));
			expect(await read()).toBe(5);
			writeFileSync(join(folder, 'base', 'later', 'more'), Buffer.alloc(mb, 1));
			expect(await read()).toBe(6);
			rmSync(join(folder, 'base', 'later'), { recursive: true });
			expect(await read()).toBe(3);
			expect(Math.round(sizeOnDisk(folder) / mb)).toBe(3);
		} finally {
			tally.stop();
		}
	});

	it('still sees what no event told, by the full count', async () => {
		const folder = fresh();
		let why: string | null = null;
		const watch = watchSize(folder, 4 * mb, (said) => (why = said));
		try {
			// Written before the watch's events could be read: the first tick's statfs sees the disk grow.
			writeFileSync(join(folder, 'base', 'unseen'), Buffer.alloc(5 * mb, 1));
			for (let waited = 0; waited < 6000 && !why; waited += 100) await pause(100);
			expect(why).not.toBeNull();
		} finally {
			watch.stop();
		}
	});
});
