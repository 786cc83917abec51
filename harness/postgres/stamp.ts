// A process's stamp: its pid and its start time, so that a folder named with it can be told, later, from one
// whose maker still runs (a pid used again by another process has another start time).
//
//   const folder = mkdtempSync(`${base}-${ownStamp()}-`);   // …-<pid>-<start>-XXXXXX
//   if (madeByTheGone(tail)) rmSync(folder, …);             // tail "<pid>-<start>-XXXXXX": its maker is gone
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
function stampGone(pid: number, start: string): boolean {
	const now = stateAndStart(pid);
	return now === null || now.state === 'Z' || now.start !== start;
}

// Whether a name's tail, `<pid>-<start>-XXXXXX` (mkdtemp's six letters or digits, or a six-digit count), is
// stamped with a process that is gone; a tail that is no stamp is nobody's to remove.
export function madeByTheGone(tail: string): boolean {
	const maker = /^(\d+)-(\d*)-[A-Za-z0-9]{6}$/.exec(tail);
	return maker !== null && stampGone(Number(maker[1]), maker[2]!);
}
