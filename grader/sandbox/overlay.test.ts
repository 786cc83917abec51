// A run's overlay on the base: what is written through the merged view lands in the run's layer alone, the quota's
// watch on that layer sees it from the events (no full count), the base underneath stays as it was, and every
// mount under a folder comes off, a path with a space in it too. Where this grader may not mount, only the
// fallback is checked: no mount is made.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterParent } from './cluster.ts';
import { mayMountOverlay, mountOverlay, mountsUnder, unmount, unmountUnderSync } from './overlay.ts';
import { Tally, watchSize } from './quota.ts';

const mb = 1024 ** 2;
const folders: string[] = [];
afterEach(() => {
	for (const folder of folders.splice(0)) {
		unmountUnderSync(folder);
		rmSync(folder, { recursive: true, force: true });
	}
});

// A base with one file, and a run's layers and mount point beside it (`name` is the run's folder).
function layersIn(name = 'run') {
	const folder = mkdtempSync(join(clusterParent(), 'overlay-test-'));
	folders.push(folder);
	const [lower, upper, work, at] = ['base', `${name}/upper`, `${name}/work`, `${name}/data`].map((each) =>
		join(folder, each)
	) as [string, string, string, string];
	for (const made of [lower, upper, work, at]) mkdirSync(made, { recursive: true });
	writeFileSync(join(lower, 'catalog'), 'the base');
	return { folder, lower, upper, work, at };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(mayMountOverlay())('an overlay on the base', () => {
	it("keeps a run's writes in its own layer, seen by the layer's events", async () => {
		const layers = layersIn();
		expect(await mountOverlay(layers)).toBe(true);
		expect(mountsUnder(layers.folder)).toEqual([layers.at]);
		const tally = new Tally(layers.upper);
		const before = tally.total;
		writeFileSync(join(layers.at, 'table'), Buffer.alloc(4 * mb, 1));
		writeFileSync(join(layers.at, 'catalog'), 'written by the run');
		await pause(100);
		tally.update();
		expect(tally.blind, 'the events named every file').toBe(false);
		expect(tally.total - before, 'bytes seen from the events alone').toBeGreaterThanOrEqual(4 * mb);
		tally.stop();
		expect(readFileSync(join(layers.lower, 'catalog'), 'utf8')).toBe('the base');
		expect(existsSync(join(layers.lower, 'table'))).toBe(false);
		await unmount(layers.at);
		expect(mountsUnder(layers.folder)).toEqual([]);
		expect(readFileSync(join(layers.upper, 'catalog'), 'utf8')).toBe('written by the run');
	});

	it('stops a run whose writes through the overlay take the base past the quota', async () => {
		const layers = layersIn();
		expect(await mountOverlay(layers)).toBe(true);
		let why: string | null = null;
		// 6 MB under the base's 30 MB: 4 MB written is within, 8 MB is past.
		const watch = watchSize(layers.upper, 36 * mb, (said) => (why = said), 30 * mb);
		try {
			writeFileSync(join(layers.at, 'first'), Buffer.alloc(4 * mb, 1));
			await pause(300);
			expect(why).toBeNull();
			writeFileSync(join(layers.at, 'second'), Buffer.alloc(4 * mb, 2));
			await pause(300);
			expect(why).toBe('its database passed 36 MB on disk, the quota of a run');
		} finally {
			watch.stop();
		}
	});

	it('takes every mount under a folder off, deepest first, a path with a space included', async () => {
		const layers = layersIn('a run');
		expect(await mountOverlay(layers)).toBe(true);
		expect(mountsUnder(layers.folder)).toEqual([layers.at]);
		unmountUnderSync(layers.folder);
		expect(mountsUnder(layers.folder)).toEqual([]);
	});

	it('mounts no path that would break its option string', async () => {
		const layers = layersIn('run,upperdir=elsewhere');
		expect(await mountOverlay(layers)).toBe(false);
		expect(mountsUnder(layers.folder)).toEqual([]);
	});
});

describe.runIf(!mayMountOverlay())('where the grader may not mount', () => {
	it('mounts nothing', () => {
		expect(mountsUnder(layersIn().folder)).toEqual([]);
	});
});
