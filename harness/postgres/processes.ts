// The server's processes, from /proc: the postmaster and its children (checkpointer, backends…), so a test
// can check that stopping the server left none of them running. Linux only; elsewhere both lists are empty.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: string): number | null {
	try {
		// /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces, so read after its last ')'.
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return null;
	}
}

// The process and every process it started, as they are now.
export function familyOf(pid: number | undefined): number[] {
	if (pid === undefined || !existsSync('/proc')) return [];
	const children = readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name) && parentOf(name) === pid)
		.map(Number);
	return [pid, ...children];
}

// Those of the processes that still run (a zombie has finished: it only waits for its parent to read it).
export function leftRunning(pids: readonly number[]): number[] {
	return pids.filter((pid) => {
		try {
			return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
		} catch {
			return false;
		}
	});
}
