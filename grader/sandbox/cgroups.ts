// The cgroups of one run (v1 memory and pids controllers): made with their limits before it starts, watched
// while it runs, emptied with SIGKILL and removed when it ends. They count RSS, Buffers and the private /tmp
// alike, and every process of the run, children too: the shell that becomes bwrap joins them first.
//
//   cgroupsWork()                                 // whether they can be made here (else: ulimit -v)
//   const cgroups = makeCgroups(1024);            // [memory, pids]: 1024 MB, 64 processes
//   const processes = watchProcesses(cgroups, 25);   // every 25 ms; processes.started(): how many of its own
//   killedForMemory(cgroups);                     // the memory controller killed one of its processes
//   removeCgroups(cgroups);                       // everything in them killed, the folders gone
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leftBehind, stampedName } from './leftovers.ts';

// bwrap, the PID namespace's init, and node: a run that has more started a process of its own.
const ownProcesses = 3;

const memoryRoot = '/sys/fs/cgroup/memory';
const pidsRoot = '/sys/fs/cgroup/pids';
export const maxProcesses = 64;

export function cgroupsWork(): boolean {
	try {
		const probe = join(memoryRoot, stampedName('grade-probe-', '000000'));
		mkdirSync(probe);
		rmdirSync(probe);
		return existsSync(pidsRoot);
	} catch {
		return false;
	}
}

const readText = (file: string) => {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return '';
	}
};

let cgroupCount = 0;

// The run's two cgroups (v1 memory, then pids), made with their limits, named with this grader as its folders
// are (leftovers.ts), and counted: grade-cgroup-<pid>-<start>-000001.
export function makeCgroups(memoryMb: number): string[] {
	const name = stampedName('grade-cgroup-', String(++cgroupCount).padStart(6, '0'));
	const [memory, pids] = [join(memoryRoot, name), join(pidsRoot, name)];
	for (const dir of [memory, pids]) mkdirSync(dir);
	writeFileSync(join(memory, 'memory.limit_in_bytes'), String(memoryMb * 1024 * 1024));
	writeFileSync(join(pids, 'pids.max'), String(maxProcesses));
	return [memory, pids];
}

// Kills every process in the cgroups, round after round, until none is left.
export function killCgroups(dirs: string[]): void {
	for (let round = 0; round < 100; round++) {
		const pids = dirs.flatMap((dir) => readText(join(dir, 'cgroup.procs')).split('\n').filter(Boolean));
		if (pids.length === 0) return;
		for (const pid of new Set(pids)) {
			try {
				process.kill(Number(pid), 'SIGKILL');
			} catch {
				// Already gone.
			}
		}
		const until = Date.now() + 5;
		while (Date.now() < until) {
			// A few milliseconds for the kernel to reap them.
		}
	}
}

// Whether the memory controller killed a process of the run's (its memory cgroup is the first).
export const killedForMemory = (cgroups: string[]) =>
	cgroups.length > 0 && /oom_kill [1-9]/.test(readText(join(cgroups[0]!, 'memory.oom_control')));

export function removeCgroups(dirs: string[]): void {
	killCgroups(dirs);
	for (const dir of dirs) {
		try {
			rmdirSync(dir);
		} catch {
			// A process the kernel has not reaped yet; the name is never used again.
		}
	}
}

// Learner code never needs a process of its own; the cgroup's list, looked at every `everyMs`, shows any it
// starts. Each look reads the list (about half a millisecond of the grader's CPU): a traced run, whose tracer
// sees every process at the call, is looked at seldom, as a second look.
export function watchProcesses(cgroups: string[], everyMs = 25) {
	let most = 0;
	const count = () => {
		if (!cgroups.length) return;
		const procs = readText(join(cgroups[1]!, 'cgroup.procs')).split('\n').filter(Boolean).length;
		most = Math.max(most, procs);
	};
	const watcher = cgroups.length ? setInterval(count, everyMs) : undefined;
	return { count, stop: () => clearInterval(watcher), started: () => Math.max(0, most - ownProcesses) };
}

// The cgroups of graders killed outright (a cgroup outlives its processes), each emptied (killCgroups) and
// removed; a live grader's are never touched. One `readdir` a controller.
export function removeLeftoverCgroups(): number {
	let removed = 0;
	for (const controller of [memoryRoot, pidsRoot]) {
		let names: string[] = [];
		try {
			names = readdirSync(controller);
		} catch {
			continue;
		}
		for (const name of names.filter(leftBehind)) {
			removeCgroups([join(controller, name)]);
			if (!existsSync(join(controller, name))) removed++;
		}
	}
	return removed;
}
