// A real grading killed outright (SIGKILL: no exit handler runs) mid-class leaves nothing the next grading's
// start does not remove: no folder in any place the grader writes, no mount, no process. While it lives, another
// grader's sweeps never touch its folders.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { materializeSamples, samples } from '../samples/samples.ts';
import { gradeClass } from './grade.ts';
import { cgroupsWork } from '../sandbox/cgroups.ts';
import { mayMountOverlay } from '../sandbox/overlay.ts';
import { root } from '../sandbox/paths.ts';
import { graderPlaces, sweepLeftovers } from '../sandbox/sweep.ts';

const dir = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : root, 'grader-killed-'));
const [submission] = materializeSamples(
	dir,
	samples.filter((sample) => sample.name === 'complete')
);
const started: ChildProcess[] = [];
const exited = (child: ChildProcess) =>
	new Promise<void>((resolve) =>
		child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())
	);

// A test that failed before its kill leaves its grading running: it is killed, and what it made swept.
afterAll(async () => {
	for (const child of started) {
		child.kill('SIGKILL');
		await exited(child);
	}
	await sweepLeftovers();
	rmSync(dir, { recursive: true, force: true });
});

// A grading of the honest sample in a process of its own, as `npm run grade` starts it.
function grading(): ChildProcess {
	const args = ['--import', 'tsx', join(root, 'grader/trusted/cli.ts'), '--out', join(dir, 'out'), '--no-go'];
	const options = ['--seed', '5', '--held-out-checks', '1', '--held-out-runs', '3', submission!];
	const child = spawn(process.execPath, [...args, ...options], { cwd: root, stdio: 'ignore' });
	started.push(child);
	return child;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Whether a name is stamped with the grader `pid` (leftovers.ts: grade-<words>-<pid>-<start>-XXXXXX).
const stampedBy = (pid: number) => (name: string) =>
	new RegExp(`^grade-(?:[a-z]+-)+${pid}-\\d*-\\w{6}$`).test(name);

// The folders stamped with `pid`, in every place the grader writes.
const foldersOf = (pid: number) =>
	graderPlaces().flatMap((place) =>
		readdirSync(place)
			.filter(stampedBy(pid))
			.map((name) => join(place, name))
	);

// The run cgroups stamped with `pid` (cgroups.ts), in both controllers.
const cgroupsOf = (pid: number) =>
	['/sys/fs/cgroup/memory', '/sys/fs/cgroup/pids']
		.filter((controller) => existsSync(controller))
		.flatMap((controller) =>
			readdirSync(controller)
				.filter(stampedBy(pid))
				.map((name) => join(controller, name))
		);

// The mount points whose path passes through a folder stamped with `pid`.
const mountsOf = (pid: number) =>
	readFileSync('/proc/self/mountinfo', 'utf8')
		.split('\n')
		.map((line) => line.split(' ')[4] ?? '')
		.filter((point) => point.split('/').some(stampedBy(pid)));

// Every process, as pid, parent, start time (ticks since boot), command line and working folder.
function processes() {
	const found: { pid: number; parent: number; start: string; args: string; cwd: string }[] = [];
	for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
			const cwd = readlinkSync(`/proc/${entry}/cwd`);
			found.push({ pid: Number(entry), parent: Number(fields[1]), start: fields[19]!, args, cwd });
		} catch {
			// Gone while looked at.
		}
	}
	return found;
}

// The grader's processes and their children's, and any process working in one of its folders.
function treeOf(pid: number) {
	const all = processes();
	const tree = all.filter((each) => each.pid === pid);
	for (let more = true; more;) {
		const next = all.filter((each) => tree.some((t) => t.pid === each.parent) && !tree.includes(each));
		tree.push(...next);
		more = next.length > 0;
	}
	const inFolders = all.filter((each) => `${each.args} ${each.cwd}`.split(/[ /]/).some(stampedBy(pid)));
	return [...new Set([...tree, ...inFolders])];
}

// The grader's folders its processes name (a sandbox's binds, a server's data, strace's record), stamped or not.
const namedBy = (tree: ReturnType<typeof processes>) =>
	tree.flatMap((each) =>
		`${each.args} ${each.cwd}`.split(' ').flatMap((path) =>
			graderPlaces().flatMap((place) => {
				const name = path.startsWith(`${place}/grade-`) ? path.slice(place.length + 1).split('/')[0]! : '';
				return name ? [join(place, name)] : [];
			})
		)
	);

const stillRunning = (seen: ReturnType<typeof processes>) =>
	processes().filter((now) => seen.some((was) => was.pid === now.pid && was.start === now.start));

// Polls until `when` holds (every 20 ms, up to 3 minutes) or the grading ends first.
async function until(child: ChildProcess, when: () => boolean): Promise<void> {
	for (let waited = 0; waited < 180_000; waited += 20) {
		if (when()) return;
		if (child.exitCode !== null) throw new Error(`the grading ended first (code ${child.exitCode})`);
		await pause(20);
	}
	throw new Error('the grading never got there');
}

// Kills the grading outright once `when` holds; what it had, and that a live grader's folders survived sweeps.
async function killedWhen(when: (pid: number) => boolean, lasting: string) {
	const child = grading();
	const pid = child.pid!;
	await until(child, () => when(pid));
	// Another grader sweeps while this one lives: the folder this grading keeps to its end is still there.
	const kept = foldersOf(pid).filter((folder) => folder.includes(lasting));
	expect(kept.length, `a ${lasting} folder of the live grading`).toBeGreaterThan(0);
	for (let sweep = 0; sweep < 3; sweep++) await sweepLeftovers();
	expect(
		kept.filter((folder) => !existsSync(folder)),
		'swept from under a live grader'
	).toEqual([]);
	const tree = treeOf(pid);
	const had = {
		folders: [...new Set([...foldersOf(pid), ...namedBy(tree)])],
		mounts: mountsOf(pid),
		cgroups: cgroupsOf(pid),
		processes: tree
	};
	child.kill('SIGKILL');
	await exited(child);
	return { pid, had };
}

// The next grading's start (no submissions: it sweeps, then has nothing to grade); nothing of `pid`'s is left.
async function nothingLeftOf(
	pid: number,
	had: { folders: string[]; processes: ReturnType<typeof processes> }
) {
	await gradeClass([], { planned: [], classFolder: dir });
	expect(foldersOf(pid), 'stamped folders left').toEqual([]);
	expect(
		had.folders.filter((folder) => existsSync(folder)),
		'folders left'
	).toEqual([]);
	expect(mountsOf(pid), 'mounts left').toEqual([]);
	expect(cgroupsOf(pid), 'cgroups left').toEqual([]);
	// A process that ends on its own as its parent goes (esbuild's service, when its pipe closes) may take a moment.
	const left = () => stillRunning(had.processes).filter((each) => each.pid !== process.pid);
	for (let waited = 0; waited < 3000 && left().length > 0; waited += 50) await pause(50);
	expect(
		left().map((each) => each.args),
		'processes left'
	).toEqual([]);
}

describe('a grading killed outright', () => {
	it('mid-run, while a run’s view exists', { timeout: 240_000 }, async () => {
		// A sandbox of its own (bwrap) that binds a view: the run has begun.
		const sandboxUp = (pid: number) =>
			namedBy(treeOf(pid).filter((each) => each.args.includes('bwrap'))).some((folder) =>
				folder.includes('/grade-view-')
			);
		const { pid, had } = await killedWhen(sandboxUp, 'grade-harness-');
		expect(had.processes.some((each) => each.args.includes('bwrap'))).toBe(true);
		if (cgroupsWork()) expect(had.cgroups.length, 'its run’s cgroups').toBeGreaterThan(0);
		await nothingLeftOf(pid, had);
	});

	it('while 06’s cluster is up', { timeout: 300_000 }, async () => {
		// Its runs begun (the harness compiled), two clusters of its own (the base and a run's), a server in one.
		const clusterUp = (pid: number) => {
			const clusters = foldersOf(pid).filter((folder) => folder.includes('/grade-postgres-run-'));
			return (
				foldersOf(pid).some((folder) => folder.includes('/grade-harness-')) &&
				clusters.length >= 2 &&
				processes().some((each) => / -D /.test(each.args) && clusters.some((c) => each.args.includes(c)))
			);
		};
		const { pid, had } = await killedWhen(clusterUp, 'grade-harness-');
		expect(had.processes.some((each) => each.args.includes('grade-postgres-run-'))).toBe(true);
		if (mayMountOverlay()) expect(had.mounts.length, 'its clusters’ overlays').toBeGreaterThan(0);
		await nothingLeftOf(pid, had);
	});
});
