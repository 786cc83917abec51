// Reads files out of a submission the way a careful unpacker does: nothing followed, nothing that can block.
//
//   const got = takeFile('/class/alice', 'exercises/01-first-handler/handler.ts', 256 * 1024);
//   got.content  // the bytes, as text, or got.refused: "a symbolic link at exercises/ (…)"
//
// Every component of the path, from the submission's folder down, is looked at with lstat: a link anywhere
// (not only at the end) is refused, and so is anything on the way that is not a folder. The file itself must
// be a regular file: no FIFO, no device, no socket (checked before it is opened, so nothing blocks). It is
// opened with O_NOFOLLOW | O_NONBLOCK, checked again through the open descriptor (the same file as looked at,
// still regular), and read up to the size cap, never past it.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';

export type Taken = { content: string; refused: null } | { content: null; refused: string };

export function kindOf(stats: Stats): string {
	if (stats.isSymbolicLink()) return 'a symbolic link';
	if (stats.isDirectory()) return 'a folder';
	if (stats.isFIFO()) return 'a FIFO';
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
	if (stats.isSocket()) return 'a socket';
	return stats.isFile() ? 'a regular file' : 'not a regular file';
}

const lstat = (path: string): Stats | null => {
	try {
		return lstatSync(path);
	} catch {
		return null;
	}
};

// What is at `relative` under `base`, walked component by component without following anything.
export function lookAt(base: string, relative: string): { stats: Stats | null; refused: string | null } {
	const parts = relative.split('/').filter(Boolean);
	if (parts.some((part) => part === '..' || part === '.'))
		return { stats: null, refused: 'a path with . or ..' };
	let here = base;
	for (const [i, part] of parts.entries()) {
		here = join(here, part);
		const stats = lstat(here);
		if (!stats) return { stats: null, refused: null };
		const shown = parts.slice(0, i + 1).join('/');
		if (stats.isSymbolicLink()) return { stats, refused: `a symbolic link at ${shown}` };
		if (i < parts.length - 1 && !stats.isDirectory())
			return { stats, refused: `${shown} is ${kindOf(stats)}` };
		if (i === parts.length - 1) return { stats, refused: null };
	}
	return { stats: lstat(base), refused: null };
}

export function takeFile(base: string, relative: string, maxBytes: number): Taken | null {
	const { stats, refused } = lookAt(base, relative);
	if (refused) return { content: null, refused };
	if (!stats) return null;
	if (!stats.isFile()) return { content: null, refused: `${kindOf(stats)}: only regular files are taken` };
	if (stats.size > maxBytes)
		return { content: null, refused: `larger than ${Math.round(maxBytes / 1024)} KB` };
	let fd: number;
	try {
		fd = openSync(join(base, relative), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch (error) {
		return { content: null, refused: `could not be opened (${(error as NodeJS.ErrnoException).code})` };
	}
	try {
		const opened = fstatSync(fd);
		if (!opened.isFile() || opened.ino !== stats.ino || opened.dev !== stats.dev)
			return { content: null, refused: 'changed while it was read' };
		const buffer = Buffer.alloc(maxBytes + 1);
		let length = 0;
		while (length < buffer.length) {
			const read = readSync(fd, buffer, length, buffer.length - length, null);
			if (read === 0) break;
			length += read;
		}
		if (length > maxBytes) return { content: null, refused: `larger than ${Math.round(maxBytes / 1024)} KB` };
		return { content: buffer.toString('utf8', 0, length), refused: null };
	} catch (error) {
		return { content: null, refused: `could not be read (${(error as NodeJS.ErrnoException).code})` };
	} finally {
		closeSync(fd);
	}
}
