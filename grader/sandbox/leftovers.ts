// The grader's cluster folders, each stamped with the grader that made it, so that a grader killed outright
// (no exit handler runs) leaves nothing the next grading does not remove.
//
//   const folder = stampedFolder('/var/tmp', 'grade-postgres-run-');   // mkdtemp, enterable, stamped
//   await removeLeftovers('/var/tmp');   // folders of graders that are gone: deleted; a live grader's: kept
//
// The stamp is a file, `grader`, holding the grader's pid and its start time (from /proc: a pid used again by
// another process has another start time). A folder is left where it is when its stamp names a live grader, when
// it has no stamp (one made this instant, not yet stamped, or by a grader older than stamps). A server still
// running on a gone grader's folder (one stopped when its grader died never acts on the parent-death signal) is
// killed first, when its command line names that folder: a pid used again by another process is left alone.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from '../../lib/run.ts';

const stampFile = 'grader';
export const folderPrefixes = ['grade-postgres-run-', 'grade-postgres-initdb-'];

// A process's start time, in clock ticks since boot (field 22 of /proc/<pid>/stat), or null when it is gone.
function startTime(pid: number): string | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
	} catch {
		return null;
	}
}

const stampOf = (pid: number) => `${pid} ${startTime(pid) ?? ''}`;

// A fresh folder under `parent`, which the server's user may enter (root is refused: it runs as another user),
// stamped with this grader.
export function stampedFolder(parent: string, prefix: string): string {
	const folder = mkdtempSync(join(parent, prefix));
	chmodSync(folder, 0o755);
	writeFileSync(join(folder, stampFile), stampOf(process.pid));
	return folder;
}

// Whether the grader a stamp names is gone: no such process, or another one under its pid.
function graderGone(stamp: string): boolean {
	const pid = Number(stamp.split(' ')[0]);
	if (!Number.isInteger(pid) || pid <= 0) return true;
	return !isAlive(pid) || stampOf(pid) !== stamp.trim();
}

// The processes whose parent is `pid` (a postmaster's backends and workers).
export function childrenOf(pid: number): number[] {
	const children: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (parent === pid) children.push(Number(entry));
		} catch {
			// Gone while looked at.
		}
	}
	return children;
}

// The live PostgreSQL on the folder's data, by pid: its postmaster.pid's first line names a live process whose
// command line names that data folder. Null when none runs there.
function serverOn(folder: string): number | null {
	const data = join(folder, 'data');
	try {
		const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
		if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(data) ? pid : null;
	} catch {
		return null;
	}
}

// A gone grader's server, with its backends, killed outright; whether it went within two seconds.
async function killLeftServer(pid: number): Promise<boolean> {
	for (const each of [...childrenOf(pid), pid]) {
		try {
			process.kill(each, 'SIGKILL');
		} catch {
			// Gone already.
		}
	}
	for (let waited = 0; waited < 2000 && isAlive(pid); waited += 50)
		await new Promise((resolve) => setTimeout(resolve, 50));
	return !isAlive(pid);
}

// A gone grader's folder removed, its server killed first. A process of that grader's still dying (a server
// starting when its grader died) may write into it while it goes: then it is tried again, a few times.
async function removeFolder(folder: string): Promise<boolean> {
	for (let attempt = 0; attempt < 5; attempt++) {
		const server = serverOn(folder);
		if (server !== null && !(await killLeftServer(server))) return false;
		await rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
		if (!existsSync(folder)) return true;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return false;
}

// Every stamped folder under `parent` whose grader is gone removed, its server killed first; how many.
export async function removeLeftovers(parent: string): Promise<number> {
	let names: string[];
	try {
		names = readdirSync(parent);
	} catch {
		return 0;
	}
	let removed = 0;
	for (const name of names) {
		if (!folderPrefixes.some((prefix) => name.startsWith(prefix))) continue;
		const folder = join(parent, name);
		let stamp: string;
		try {
			stamp = readFileSync(join(folder, stampFile), 'utf8');
		} catch {
			continue;
		}
		if (!graderGone(stamp)) continue;
		if (await removeFolder(folder)) removed++;
	}
	return removed;
}
