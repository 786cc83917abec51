// Every folder the grader makes for a grading (a run's cluster and view, the compiled harness, a Go build, a
// trace), each named with the grader that made it, so that a grader killed outright (no exit handler runs)
// leaves nothing the next grading does not remove.
//
//   const folder = stampedFolder('/var/tmp', 'grade-postgres-run-');   // …-run-<pid>-<start>-XXXXXX, enterable
//   const view = privateStampedFolder('/dev/shm', 'grade-view-');      // the same name, mkdtemp's mode (0700)
//   await removeLeftovers('/var/tmp');   // folders of graders that are gone: deleted; a live grader's: kept
//   await sweepLeftovers();              // the same in every place the grader writes (sweep.ts)
//
// The stamp is in the folder's name: the grader's pid and its start time (from /proc: a pid used again by
// another process has another start time). mkdtemp makes the folder and its name in one step, so there is no
// instant when a folder is there and its grader unknown. (The stamp was a file written just after mkdtemp: a
// grader killed between the two left an empty folder that no sweep could tell from a live grader's, and a sweep
// that removed a stamp file first and the rest not at all left one too.) A folder whose name holds no stamp
// is left where it is: a stamped name is `grade-<words>-<pid>-<start>-XXXXXX`, whatever the words, so one
// rule covers every kind of folder, a kind added later too. Before a gone grader's folder is removed, every
// process still working in it is killed with its children: one whose command line names the folder or whose
// working folder is in it (a copy into it, a server on its data and its backends, an initdb, strace writing a
// run's trace, a Go build). Such a process outlives its grader when it was
// stopped (a stopped server never acts on its parent-death signal) or started from a grader that died before
// the process could set that signal (harness/postgres/template.ts now refuses to start such a program). A run's
// cluster mounted as an overlay (overlay.ts) is unmounted once nothing works in it, and only then removed.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { madeByTheGone, ownStamp } from '../../harness/postgres/stamp.ts';
import { unmountUnderSync } from './overlay.ts';

// A name stamped with this grader: `prefix`, the stamp, then `last` (mkdtemp's six letters or digits, or a
// cgroup's six-digit count, cgroups.ts).
export const stampedName = (prefix: string, last: string) => `${prefix}${ownStamp()}-${last}`;

// A fresh folder under `parent` that only this grader may enter (mkdtemp's 0700), named with this grader;
// `prefix` is `grade-` and words of lowercase letters, each followed by a dash (`grade-go-view-`).
export function privateStampedFolder(parent: string, prefix: string): string {
	if (!/^grade-(?:[a-z]+-)+$/.test(prefix)) throw new Error(`${prefix}: not a prefix a sweep knows`);
	return mkdtempSync(join(parent, stampedName(prefix, '')));
}

// A fresh folder under `parent`, named with this grader, which the server's user may enter (root is refused:
// the server runs as another user).
export function stampedFolder(parent: string, prefix: string): string {
	const folder = privateStampedFolder(parent, prefix);
	chmodSync(folder, 0o755);
	return folder;
}

// Whether `name`, `grade-<words>-` and a stamp, is stamped with a grader that is gone.
export function leftBehind(name: string): boolean {
	const words = /^grade-(?:[a-z]+-)+?(?=\d+-\d*-[A-Za-z0-9]{6}$)/.exec(name);
	return words !== null && madeByTheGone(name.slice(words[0].length));
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

// Whether a path is `folder` or inside it.
const within = (folder: string, path: string) => path === folder || path.includes(`${folder}/`);

// The live processes working in `folder`: whose command line names it or a path inside it, or whose working
// folder is inside it (a server's children, on its data). A zombie has neither; another user's is not readable.
function workingIn(folder: string): number[] {
	const found: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
			if (args.some((arg) => within(folder, arg)) || within(folder, readlinkSync(`/proc/${entry}/cwd`)))
				found.push(Number(entry));
		} catch {
			// Gone while looked at, or not ours to look at.
		}
	}
	return found;
}

const kill = (pid: number, signal: NodeJS.Signals) => {
	try {
		process.kill(pid, signal);
	} catch {
		// Gone already.
	}
};

// Every process of a gone grader's still working in its folder killed outright, each stopped first (so it
// forks no more) and its children with it; whether they were all gone within two seconds.
async function killWorkingIn(folder: string): Promise<boolean> {
	for (let waited = 0; waited < 2000; waited += 50) {
		const working = workingIn(folder);
		if (working.length === 0) return true;
		for (const pid of working) {
			kill(pid, 'SIGSTOP');
			for (const child of childrenOf(pid)) kill(child, 'SIGKILL');
			kill(pid, 'SIGKILL');
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return workingIn(folder).length === 0;
}

// A gone grader's folder removed, what still works in it killed first. A process that dies slowly may write
// into it while it goes: then it is tried again, a few times; what is left keeps its name for the next sweep.
async function removeFolder(folder: string): Promise<boolean> {
	for (let attempt = 0; attempt < 5; attempt++) {
		if (!(await killWorkingIn(folder))) return false;
		// A run's overlay (overlay.ts) comes off first: removing the folder must not go through a mounted view.
		unmountUnderSync(folder);
		await rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
		if (!existsSync(folder)) return true;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return false;
}

// Every folder under `parent` whose name is stamped with a grader that is gone removed, what works in it
// killed first; how many.
export async function removeLeftovers(parent: string): Promise<number> {
	let names: string[];
	try {
		names = readdirSync(parent);
	} catch {
		return 0;
	}
	let removed = 0;
	for (const name of names) {
		if (!leftBehind(name)) continue;
		if (await removeFolder(join(parent, name))) removed++;
	}
	return removed;
}
