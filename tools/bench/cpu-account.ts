// CPU seconds of everything a bench starts, counted by the kernel (a cgroup v1 cpuacct group of its own), with
// PostgreSQL's servers counted apart: a sandbox's processes are reaped in their own PID namespace, so the
// parent's rusage never sees them, and a cluster's backends are not the bench's children at all.
//
//   const account = cpuAccount();        // null where there is no cpuacct controller (cgroup v2: not measured)
//   const before = account.read();       // { all, postgres, grader } in CPU seconds so far
//   account.close();                     // this process back where it was, the groups removed
//
// Every process the bench starts from then on is in its group (children inherit it; a run's shell joins only
// the memory and pids controllers). A PostgreSQL server is moved to the second group as soon as it is seen,
// looked for every 100 ms in each process's first 3 s, and the backends it forks after that follow it there.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const controller = '/sys/fs/cgroup/cpuacct';

export type CpuSeconds = { all: number; postgres: number; grader: number };

export function cpuAccount() {
	const all = join(controller, `bench-${process.pid}`);
	const postgres = join(controller, `bench-${process.pid}-postgres`);
	try {
		if (!existsSync(join(controller, 'cpuacct.usage'))) return null;
		for (const group of [all, postgres]) mkdirSync(group);
		writeFileSync(join(all, 'cgroup.procs'), String(process.pid));
	} catch {
		return null;
	}
	const usage = (group: string) => Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e9;
	// Every 100 ms, and each process in its first seconds only (a server is one as soon as its launcher execs
	// it, and its helpers are postgres from their start): the list and every name read every 20 ms cost the
	// bench's own process some 25 ms of CPU a second, which it counted as the grader's.
	let firstSeen = new Map<string, number>();
	const moveServers = () => {
		const now = Date.now();
		const seen = new Map<string, number>();
		for (const pid of readFileSync(join(all, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
			seen.set(pid, firstSeen.get(pid) ?? now);
		firstSeen = seen;
		for (const [pid, since] of seen) {
			if (now - since > 3000) continue;
			try {
				if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres')
					writeFileSync(join(postgres, 'cgroup.procs'), pid);
			} catch {
				// Gone meanwhile.
			}
		}
	};
	const mover = setInterval(moveServers, 100);
	mover.unref();
	return {
		read(): CpuSeconds {
			const own = process.cpuUsage();
			const servers = usage(postgres);
			return { all: usage(all) + servers, postgres: servers, grader: (own.user + own.system) / 1e6 };
		},
		close() {
			clearInterval(mover);
			writeFileSync(join(controller, 'cgroup.procs'), String(process.pid));
			for (const group of [all, postgres])
				try {
					rmdirSync(group);
				} catch {
					// A process still in it (a server on its way out): the kernel removes nothing; left as it is.
				}
		}
	};
}

// What was spent between two readings, divided by n.
export const spent = (after: CpuSeconds, before: CpuSeconds, n = 1): CpuSeconds => ({
	all: (after.all - before.all) / n,
	postgres: (after.postgres - before.postgres) / n,
	grader: (after.grader - before.grader) / n
});
