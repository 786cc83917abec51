// A run's cluster folder as an overlay on the grading's base, where the grader may mount: nothing is copied, the
// run's writes land in a folder of its own (the upper layer), and the base underneath is never written.
//
//   if (mayMountOverlay()) await mountOverlay({ lower: baseData, upper, work, at: data });
//   await unmount(data);                  // detached even when busy; never throws
//   unmountUnderSync(folder);             // every mount at or under a folder, deepest first (a dead grader's)
//
// Only root mounts, and only where the kernel knows overlayfs; a mount that fails once (a container without the
// capability, a file system that refuses to be an upper layer) makes every later cluster of this grader a copy,
// as before. The merged view's root takes the upper folder's owner and mode, so the upper folder is made the
// server's user's, 0700, as PostgreSQL wants its data folder. The mount is made with root's credentials, which
// overlayfs keeps for its own reads of the layers: the server's user never needs to enter the base's folder.
// The option string is comma-separated, so a path with a comma, a colon or a backslash is never mounted.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { promisify } from 'node:util';

let refused = false;

// Whether this grader mounts its clusters: root, overlayfs known, no mount refused so far, and not told to copy
// (WORKBOOK_GRADER_CLUSTER_COPY=1: how a test or a bench sets the two side by side).
export function mayMountOverlay(): boolean {
	if (refused || process.env.WORKBOOK_GRADER_CLUSTER_COPY === '1' || process.getuid?.() !== 0) return false;
	try {
		return /\toverlay$/m.test(readFileSync('/proc/filesystems', 'utf8'));
	} catch {
		return false;
	}
}

const plain = (path: string) => !/[,:\\]/.test(path);

// The overlay mounted at `at`; false (and no mount) when the kernel refused it, which makes later clusters copies.
export async function mountOverlay(layers: {
	lower: string;
	upper: string;
	work: string;
	at: string;
}): Promise<boolean> {
	const { lower, upper, work, at } = layers;
	if (![lower, upper, work, at].every(plain)) return false;
	const options = `lowerdir=${lower},upperdir=${upper},workdir=${work}`;
	try {
		await promisify(execFile)('mount', ['-t', 'overlay', 'overlay', '-o', options, at]);
		return true;
	} catch {
		refused = true;
		return false;
	}
}

// The mount points at or under `folder`, deepest first, as this process's mount table says (octal escapes
// undone: a space is \040).
export function mountsUnder(given: string): string[] {
	let table = '';
	let folder = given;
	try {
		folder = realpathSync(given);
	} catch {
		// Gone already: any mount left is listed under the name given.
	}
	try {
		table = readFileSync('/proc/self/mountinfo', 'utf8');
	} catch {
		return [];
	}
	const points = table
		.split('\n')
		.map((line) => line.split(' ')[4] ?? '')
		.map((point) =>
			point.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(parseInt(code, 8)))
		)
		.filter((point) => point === folder || point.startsWith(`${folder}/`));
	return [...new Set(points)].sort((a, b) => b.length - a.length);
}

// `at` unmounted; when it is busy (a process of the run still in it), detached at once all the same.
export async function unmount(at: string): Promise<void> {
	const run = promisify(execFile);
	await run('umount', [at]).catch(() => run('umount', ['--lazy', at]).catch(() => undefined));
}

// Every mount at or under `folder` detached, deepest first, before the folder is removed: a grader on its way
// out, or the sweep of a gone grader's folders.
export function unmountUnderSync(folder: string): void {
	for (const point of mountsUnder(folder))
		try {
			execFileSync('umount', ['--lazy', point], { stdio: 'ignore' });
		} catch {
			// Not a mount any more.
		}
}
