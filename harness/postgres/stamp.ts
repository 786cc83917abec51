// A process's stamp: its pid and its start time, so that a folder named with it can be told, later, from one
// whose maker still runs (a pid used again by another process has another start time).
//
//   const folder = mkdtempSync(`${base}-${ownStamp()}-`);   // …-<pid>-<start>-XXXXXX
//   if (stampGone(pid, start)) rmSync(folder, …);           // its maker is gone: nobody will remove it
import { readFileSync } from 'node:fs';

// A process's state and start time, in clock ticks since boot (fields 3 and 22 of /proc/<pid>/stat), or null
// when it is gone.
function stateAndStart(pid: number): { state: string; start: string } | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return { state: fields[0] ?? '', start: fields[19] ?? '' };
	} catch {
		return null;
	}
}

export const startTime = (pid: number): string | null => stateAndStart(pid)?.start ?? null;

// This process's stamp, read once.
let stamp: string | undefined;
export const ownStamp = () => (stamp ??= `${process.pid}-${startTime(process.pid) ?? ''}`);

// Whether the process a stamp names is gone: no such process, a zombie (dead, its parent not told yet), or
// another process under its pid.
export function stampGone(pid: number, start: string): boolean {
	const now = stateAndStart(pid);
	return now === null || now.state === 'Z' || now.start !== start;
}
