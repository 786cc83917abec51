// A process's stamp: its pid and its start time, so that a folder named with it can be told, later, from one
// whose maker still runs (a pid used again by another process has another start time).
//
//   const folder = mkdtempSync(`${base}-${ownStamp()}-`);   // …-<pid>-<start>-XXXXXX
//   if (stampGone(pid, start)) rmSync(folder, …);           // its maker is gone: nobody will remove it
import { readFileSync } from 'node:fs';
import { isAlive } from './run.ts';

// A process's start time, in clock ticks since boot (field 22 of /proc/<pid>/stat), or null when it is gone.
export function startTime(pid: number): string | null {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
	} catch {
		return null;
	}
}

// This process's stamp, read once.
let stamp: string | undefined;
export const ownStamp = () => (stamp ??= `${process.pid}-${startTime(process.pid) ?? ''}`);

// Whether the process a stamp names is gone: no such process, or another one under its pid.
export const stampGone = (pid: number, start: string) => !isAlive(pid) || (startTime(pid) ?? '') !== start;
