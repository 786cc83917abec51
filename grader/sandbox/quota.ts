// A run's cluster folder held to its quota on disk, cheaply: its size kept from the kernel's change events
// rather than by adding up every file ten times a second.
//
//   const watch = watchSize(folder, 256 * 1024 ** 2, (why) => stopTheRun(why));   // onFull once, with why
//   watch.stop();
//   sizeOnDisk(folder);                                                            // one full count, in bytes
//
// A cluster holds some 1,300 files. Counting them all every 100 ms took the grader most of a core under load,
// for the whole of each run of 06. So the folder is counted once, every folder in it is watched (inotify,
// through fs.watch), and every 100 ms only what changed since is looked at again: a file written, made or
// removed, and its folder. Two things can hide a change from the events: a queue that overflows while the
// grader is busy (the kernel then drops events, and says so to no one node tells), and a watch that cannot be
// made (too many watches on the machine). So each tick also reads the file system's own count of used blocks
// (one statfs): when it grew by more than the quota has room left, the folder is counted in full at once; it is
// counted in full every 5 s too, and every tick where a watch failed. A write past the quota is then seen within
// 100 ms of reaching the disk, as before.
import { lstatSync, readdirSync, statfsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

const tickMs = 100;
const fullCountEvery = 50;

// The bytes a folder takes on disk (its files' blocks), links not followed.
export function sizeOnDisk(folder: string): number {
	let total = 0;
	let entries: string[];
	try {
		entries = readdirSync(folder);
	} catch {
		return 0;
	}
	for (const name of entries) {
		const path = join(folder, name);
		try {
			const stat = lstatSync(path);
			total += stat.blocks * 512;
			if (stat.isDirectory()) total += sizeOnDisk(path);
		} catch {
			// Gone while counted.
		}
	}
	return total;
}

// Bytes in use on the file system that holds `folder`, or null where statfs says nothing.
function usedOnDisk(folder: string): number | null {
	try {
		const fs = statfsSync(folder);
		return (fs.blocks - fs.bfree) * fs.bsize;
	} catch {
		return null;
	}
}

// The folder's files and folders, each with its bytes, kept up to date from the events of a watch on each folder.
export class Tally {
	total = 0;
	// A watch could not be made, or an event named no file: only a full count is right until the next one.
	blind = false;
	private readonly sizes = new Map<string, number>();
	private readonly watchers = new Map<string, FSWatcher>();
	private readonly changed = new Set<string>();

	constructor(private readonly folder: string) {
		this.look(folder);
	}

	// One path looked at again: its bytes, and, for a folder seen for the first time (or every folder, in a full
	// count), a watch and its contents.
	private look(path: string, full = false): void {
		// A file the server removed meanwhile (most of what its temporary files do) is no error to throw and catch.
		let stat;
		try {
			stat = lstatSync(path, { throwIfNoEntry: false });
		} catch {
			stat = undefined;
		}
		if (!stat) {
			this.forget(path);
			return;
		}
		this.set(path, stat.blocks * 512);
		if (!stat.isDirectory() || (this.watchers.has(path) && !full)) return;
		if (!this.watchers.has(path)) this.watchFolder(path);
		let names: string[] = [];
		try {
			names = readdirSync(path);
		} catch {
			this.blind = true;
		}
		for (const name of names) this.look(join(path, name), full);
	}

	private watchFolder(path: string): void {
		try {
			const watcher = watch(path, { persistent: false }, (_event, name) => {
				if (name === null) this.blind = true;
				else this.changed.add(join(path, String(name)));
				this.changed.add(path);
			});
			watcher.on('error', () => (this.blind = true));
			this.watchers.set(path, watcher);
		} catch {
			this.blind = true;
		}
	}

	private set(path: string, bytes: number): void {
		this.total += bytes - (this.sizes.get(path) ?? 0);
		this.sizes.set(path, bytes);
	}

	// A path that is gone, and, for a folder, everything under it.
	private forget(path: string): void {
		const under = `${path}/`;
		const folder = this.watchers.has(path);
		for (const [known, bytes] of folder ? [...this.sizes] : [[path, this.sizes.get(path) ?? 0] as const])
			if (known === path || known.startsWith(under)) {
				this.total -= bytes;
				this.sizes.delete(known);
			}
		if (!folder) return;
		for (const [known, watcher] of [...this.watchers])
			if (known === path || known.startsWith(under)) {
				watcher.close();
				this.watchers.delete(known);
			}
	}

	// What changed since the last tick, looked at again.
	update(): void {
		const paths = [...this.changed];
		this.changed.clear();
		for (const path of paths) this.look(path);
	}

	// Every file counted again (new folders get their watch); the events since are then already counted.
	recount(): void {
		this.changed.clear();
		this.blind = false;
		this.sizes.clear();
		this.total = 0;
		this.look(this.folder, true);
	}

	stop(): void {
		for (const watcher of this.watchers.values()) watcher.close();
		this.watchers.clear();
	}
}

// Every 100 ms, the folder's size on disk as the events tell it (and in full when they may not), plus `beneath`
// (what the run's cluster holds outside the folder: the base under its overlay); past the quota, onFull once,
// with why.
export function watchSize(folder: string, quotaBytes: number, onFull: (why: string) => void, beneath = 0) {
	const tally = new Tally(folder);
	// The file system's used bytes and the folder's, at the last full count: the folder cannot have grown by
	// more than the file system has (unless something else freed space meanwhile, which the events still see).
	let counted = { used: usedOnDisk(folder), total: tally.total + beneath };
	let ticks = 0;
	const tick = () => {
		const used = usedOnDisk(folder);
		const mayBeFull =
			used !== null && counted.used !== null && counted.total + (used - counted.used) > quotaBytes;
		if (tally.blind || mayBeFull || ++ticks % fullCountEvery === 0) {
			tally.recount();
			counted = { used, total: tally.total + beneath };
		} else tally.update();
		if (tally.total + beneath <= quotaBytes) return;
		stop();
		onFull(`its database passed ${Math.round(quotaBytes / 1024 ** 2)} MB on disk, the quota of a run`);
	};
	const timer = setInterval(tick, tickMs);
	timer.unref();
	const stop = () => {
		clearInterval(timer);
		tally.stop();
	};
	return { stop };
}
