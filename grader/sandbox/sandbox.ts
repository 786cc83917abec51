// One exercise run of one submission, sealed off with bubblewrap: the only place learner code ever runs.
//
//   const sandbox = findSandbox({ unsafe: false });          // throws when bwrap is missing
//   const ran = await runSandboxed(sandbox, view, { timeoutMs: 20_000, memoryMb: 1024, maxObservations });
//   ran.observations  // what grader/inside/main.ts wrote on fd 3, capped; the verdicts are made elsewhere
//   ran.attempt       // '/proc/1/environ': the first thing its code tried to reach outside the sandbox, or null
//
// `view` is a private folder the grader made for this run (see tree.ts): the exercise's files with the
// learner's on top, and job.json, the inputs. Inside, the process sees only read-only binds of what a run needs:
// /usr (node), the workbook's package.json, node_modules, harness, schedules, grader/inside and grader/channel,
// with the view at /wb (and, for a run with a database, the PostgreSQL socket's folder at /run/postgresql). No
// solutions/, no held-out files, no grader, no other learner, no checkout, no host /tmp.
// Namespaces: all of them (--unshare-all: no network, its own PID namespace, so every child it starts dies
// with it), an unprivileged uid with no capabilities, a fresh session (--new-session), a private /tmp, and
// --die-with-parent. Memory and processes are limited for the whole tree by a cgroup (v1 memory and pids
// controllers, cgroups.ts), which counts RSS, Buffers and the private /tmp alike; when no cgroup can be made, by
// prlimit on address space (said in `memoryLimit`). At the end, or at the time limit, everything in the
// cgroup is killed with SIGKILL and the cgroup removed.
// strace, started outside the sandbox and the cgroups, records every call of the run that names a path, a
// process or an address (trace.ts); attempts.ts judges that record as it grows, and the first attempt to reach
// outside the sandbox stops the run (`ran.attempt`, which forfeits the exercise). `findSandbox({ untraced: true })`
// runs without it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { needProgram } from '../../lib/packages.ts';
import { channelFd, heldOutFd, keyFd } from '../channel/observations.ts';
import { AttemptWatch, runView } from './attempts.ts';
import {
	cgroupsWork,
	killCgroups,
	killedForMemory,
	makeCgroups,
	removeCgroups,
	watchProcesses
} from './cgroups.ts';
import { root } from './paths.ts';
import { clusterPort } from './cluster.ts';
import { socketInSandbox } from './postgres.ts';

const socketFile = `.s.PGSQL.${clusterPort}`;
import { followTrace, openTrace, straceArgs, straceFails } from './trace.ts';

export type Sandbox = {
	bwrap: string | null;
	// strace, recording from outside the sandbox what the run tried (attempts.ts); null with --untraced.
	strace: string | null;
	// How memory is limited: 'cgroup' (v1 memory controller), 'prlimit' (address space), or 'none'.
	memoryLimit: 'cgroup' | 'prlimit' | 'none';
};
export type SandboxLimits = {
	timeoutMs: number;
	memoryMb: number;
	maxOutput: number;
	maxObservations: number;
};
export type SandboxRun = {
	observations: string;
	// The run's own key, handed in on fd 4 and nowhere else: every line the observer wrote carries its HMAC.
	key: Buffer;
	// The grader stopped the run (its time limit, memory, a flood, an attempt): a last line it cut is no forgery.
	stopped: boolean;
	// The observations passed the size cap: the rest was not read, and the run was stopped.
	flooded: boolean;
	output: string;
	code: number | null;
	signal: string | null;
	timedOut: boolean;
	outOfMemory: boolean;
	// The most processes the run had at once beyond its own three (bwrap, bwrap's init, node): children it started.
	started: number;
	// The first thing it tried to reach outside its sandbox (attempts.ts), or null; the run is stopped there.
	attempt: string | null;
	// Its trace passed maxTrace (a loop of system calls): the run was stopped.
	traceFlooded: boolean;
	// How many of the run's own calls the tracer stopped on and judged.
	tracedCalls: number;
	// Why the grader stopped it from outside (run.abort's reason: its database passed its quota), or null.
	stoppedFor: string | null;
	// A batch's (run.parts): the part whose calls held the attempt (0 when it cannot be told: every part), and the
	// calls traced in each part.
	attemptPart: number | null;
	callsByPart: number[];
	seconds: number;
};

// The sandbox to use; without bwrap the grader refuses, unless told to run learner code unsealed, and without
// a working strace it refuses unless told to grade untraced (attempts that fail silently are then not seen).
export function findSandbox(options: { unsafe: boolean; untraced?: boolean }): Sandbox {
	if (options.unsafe) return { bwrap: null, strace: null, memoryLimit: 'prlimit' };
	const bwrap = needProgram('bwrap');
	const memoryLimit = cgroupsWork() ? 'cgroup' : 'prlimit';
	if (options.untraced) return { bwrap, strace: null, memoryLimit };
	const strace = needProgram('strace');
	const fails = straceFails(strace);
	if (fails)
		throw new Error(
			`strace cannot trace here (${fails.split('\n')[0]}); grade with --untraced to go on without seeing attempts`
		);
	return { bwrap, strace, memoryLimit };
}

// What the sandbox's root holds: the system's programs, read-only, and the workbook's view at /wb.
// socketFolder: a PostgreSQL cluster's socket folder, whose socket is bound read-only in /run/postgresql for a run
// that has a database.
function bwrapArgs(
	harness: string,
	view: string,
	folders: string[],
	socketFolder: string | null,
	program: string | null = null
): string[] {
	const ro = (from: string, to: string) => ['--ro-bind', from, to];
	const base = [
		'--unshare-all',
		'--unshare-user',
		'--uid',
		'65534',
		'--gid',
		'65534',
		'--cap-drop',
		'ALL',
		'--die-with-parent',
		'--new-session',
		'--clearenv',
		...['--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'HOME', '/tmp', '--setenv', 'TMPDIR', '/tmp'],
		...['--setenv', 'NO_COLOR', '1', '--setenv', 'GRADE_JOB', '/wb/job.json'],
		// The time zone ICU would settle on anyway (the sandbox has no /etc/localtime), given rather than searched
		// for: the search opens every file in /usr/share/zoneinfo, some 5,700, on a run's first local Date.
		...['--setenv', 'TZ', 'UTC'],
		...ro('/usr', '/usr'),
		...['--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64'],
		...['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp']
	];
	// The socket alone, not its folder: the folder's lock file names the cluster's data folder on the host.
	const socket = socketFolder ? ro(join(socketFolder, socketFile), join(socketInSandbox, socketFile)) : [];
	// A Go submission's program (go-build.ts): it and job.json alone at /wb, none of the JavaScript harness.
	// GOMAXPROCS given, so Go's runtime does not read the cgroup's CPU limit from /proc/self/mountinfo.
	if (program)
		return [
			...base,
			...['--setenv', 'GOMAXPROCS', '2'],
			...ro(program, '/wb/observe'),
			...ro(join(view, 'job.json'), '/wb/job.json'),
			...socket,
			...['--chdir', '/wb', '/wb/observe']
		];
	return [
		...base,
		...ro(harness, '/wb'),
		...ro(join(root, 'node_modules'), '/wb/node_modules'),
		...ro(join(root, 'schedules'), '/wb/schedules'),
		...folders.flatMap((folder) => ro(join(view, 'exercises', folder), `/wb/exercises/${folder}`)),
		...ro(join(view, 'job.json'), '/wb/job.json'),
		...socket,
		'--chdir',
		'/wb',
		'node',
		...nodeFlags,
		'/wb/inside/main.js'
	];
}

// JavaScript's built-ins frozen before any code runs: learner code cannot replace JSON.stringify, a prototype's
// methods or a matcher under the observers' feet. Node's permission model, with every file allowed (the kernel's
// view and the tracer judge files), refuses what would let code in the process reach the observer's key or run
// anything the trace does not see: the inspector (SIGUSR1 too), worker threads, native addons, WASI and child
// processes. (The flags' experimental-feature warnings are not shown.) And V8's optimizing compiler, TurboFan, is
// left out (--max-opt=1: the interpreter and Sparkplug, V8's baseline compiler, run everything): a run is a fresh
// process whose plays last a second or two, and optimizing their hot functions cost more CPU than the faster code
// then saved; what the code computes is the same (grader/README.md, What every run pays).
const permission = process.allowedNodeEnvironmentFlags.has('--permission')
	? '--permission'
	: '--experimental-permission';
const nodeFlags = [
	'--frozen-intrinsics',
	permission,
	'--allow-fs-read=*',
	'--allow-fs-write=*',
	'--no-warnings',
	'--max-opt=1'
];

// abort: stops the run from outside, its reason said in stoppedFor (a watch on the run's database's size).
// heldOut: the held-out checks' inputs (JSON), handed in on heldOutFd rather than in job.json.
// program: a Go submission's built observer (go-build.ts), run in place of node and grader/inside/main.js.
// A batch (grader/trusted/run-batch.ts): folders, every exercise folder it binds (folder is the first); parts,
// the folder each part plays, which the tracer learns begins from the part's marker (grader/channel/job.ts); key,
// the run's key, drawn by the caller; onChannel, each chunk of the channel as it arrives (the run's observations
// are then the caller's to keep: ran.observations is empty).
type RunFiles = {
	folders?: string[];
	parts?: { folder: string; marker: string }[];
	key?: Buffer;
	onChannel?: (chunk: Buffer) => void;
	heldOut?: string;
	program?: string | null;
	harness: string;
	view: string;
	folder: string;
	socketFolder?: string | null;
	abort?: AbortSignal;
};

// The command of one run: a shell that joins the run's cgroups first and then becomes the sandbox, so nothing
// runs outside them, not for a moment; started by strace when there is a trace to write.
function runCommand(
	sandbox: Sandbox,
	run: RunFiles,
	memoryMb: number,
	cgroups: string[],
	traceFile: string | null
): string[] {
	const joins = cgroups.map((dir) => `echo $$ > ${dir}/cgroup.procs && `).join('');
	// Address space, not memory: node reserves much it never touches, and WebAssembly (undici's HTTP parser,
	// which Request and Response use) reserves about 10 GB of guard pages for each instance.
	const limit = sandbox.memoryLimit === 'prlimit' ? `ulimit -v ${(memoryMb + 16_384) * 1024} && ` : '';
	const inner = sandbox.bwrap
		? [
				sandbox.bwrap,
				...bwrapArgs(
					run.harness,
					run.view,
					run.folders ?? [run.folder],
					run.socketFolder ?? null,
					run.program
				)
			]
		: run.program
			? [run.program]
			: [process.execPath, ...nodeFlags, join(run.view, 'inside', 'main.js')];
	const shell = ['sh', '-c', `${joins}${limit}exec "$@"`, 'sandbox', ...inner];
	// strace stays outside the cgroups and the sandbox (the shell it starts joins them), and writes its record in
	// a folder of the grader's that the sandbox does not bind: nothing inside can see it, write it or stop it.
	return traceFile ? [sandbox.strace!, ...straceArgs(traceFile), '--', ...shell] : shell;
}

function start(sandbox: Sandbox, view: string, command: string[]): ChildProcess {
	return spawn(command[0]!, command.slice(1), {
		cwd: view,
		env: sandbox.bwrap
			? { PATH: '/usr/bin:/bin' }
			: { PATH: process.env.PATH ?? '/usr/bin:/bin', GRADE_JOB: join(view, 'job.json'), NO_COLOR: '1' },
		// No stdin; stdout and stderr, kept for the report; fd 3 (channelFd), the observations; fd 4 (keyFd), the key;
		// fd 5 (heldOutFd), the held-out inputs.
		stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
		detached: true
	});
}

// Everything goes: the sandbox's process group, and whatever is left in its cgroups.
function stopRun(child: ChildProcess, cgroups: string[]): void {
	try {
		if (child.pid) process.kill(-child.pid, 'SIGKILL');
	} catch {
		// Already gone.
	}
	killCgroups(cgroups);
}

// The run's stdout and stderr together, up to maxOutput; what was cut is counted and said at the end.
function keptOutput(maxOutput: number) {
	let output = '';
	let dropped = 0;
	return {
		keep(chunk: Buffer) {
			const room = Math.max(0, maxOutput - output.length);
			output += chunk.toString('utf8', 0, Math.min(chunk.length, room));
			dropped += Math.max(0, chunk.length - room);
		},
		text: () => (dropped ? `${output}\n[… ${dropped} more bytes of output cut]` : output)
	};
}

// The observations on the channel, up to maxObservations: past it the run is stopped and the rest never read.
// keep: false when the caller reads the channel itself as it comes (onChannel): its size is still capped here.
function readChannel(
	channel: NodeJS.ReadableStream,
	maxObservations: number,
	stop: () => void,
	keep: boolean
) {
	const chunks: Buffer[] = [];
	let size = 0;
	let flooded = false;
	channel.on('data', (chunk: Buffer) => {
		if (flooded) return;
		size += chunk.length;
		if (size > maxObservations) {
			flooded = true;
			stop();
			return;
		}
		if (keep) chunks.push(chunk);
	});
	channel.on('error', () => {});
	return { flooded: () => flooded, text: () => Buffer.concat(chunks).toString('utf8') };
}

// At the time limit the run is stopped, and said to have timed out.
function timeLimit(timeoutMs: number, stop: () => void) {
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		stop();
	}, timeoutMs);
	return { timedOut: () => timedOut, clear: () => clearTimeout(timer) };
}

// One run, in named steps: its cgroups and its command (strace, the shell, bwrap) before it starts; while it
// runs, its output, its channel, its trace, its time limit and its processes are each watched; once it ends,
// everything is cleaned up, once.
export function runSandboxed(sandbox: Sandbox, run: RunFiles, limits: SandboxLimits): Promise<SandboxRun> {
	const started = Date.now();
	const cgroups = sandbox.memoryLimit === 'cgroup' ? makeCgroups(limits.memoryMb) : [];
	const trace = sandbox.bwrap && sandbox.strace ? openTrace() : null;
	const command = runCommand(sandbox, run, limits.memoryMb, cgroups, trace?.file ?? null);
	const view = {
		harness: run.harness,
		// A batch's run is given an exercise folder only from its part's marker on (attempts.ts).
		folder: run.parts ? '' : run.folder,
		socket: Boolean(run.socketFolder),
		program: Boolean(run.program)
	};
	const watch = trace ? new AttemptWatch(runView(view), run.parts) : null;
	const key = run.key ?? randomBytes(32);
	let stopped = false;
	return new Promise((resolve) => {
		const child = start(sandbox, run.view, command);
		const keyPipe = child.stdio[keyFd] as Writable;
		keyPipe.on('error', () => {});
		keyPipe.end(key);
		const heldOutPipe = (child.stdio as unknown as Writable[])[heldOutFd]!;
		heldOutPipe.on('error', () => {});
		heldOutPipe.end(run.heldOut ?? '{}');
		const stop = () => {
			stopped = true;
			stopRun(child, cgroups);
		};
		const output = keptOutput(limits.maxOutput);
		child.stdout!.on('data', output.keep);
		child.stderr!.on('data', output.keep);
		const channel = child.stdio[channelFd] as NodeJS.ReadableStream;
		if (run.onChannel) channel.on('data', run.onChannel);
		const observations = readChannel(channel, limits.maxObservations, stop, !run.onChannel);
		const tracer = trace ? followTrace(trace, watch!, stop) : null;
		const clock = timeLimit(limits.timeoutMs, stop);
		// Untraced, the cgroup's list is how a process of its own is seen; traced, the tracer sees it first.
		const processes = watchProcesses(cgroups, tracer ? 500 : 25);
		let stoppedFor: string | null = null;
		const abort = () => {
			stoppedFor = String(run.abort!.reason);
			stop();
		};
		if (run.abort?.aborted) abort();
		else run.abort?.addEventListener('abort', abort, { once: true });
		// Cleaning up, once: the watches stop, the memory controller says whether it killed, everything left is
		// killed and the cgroups removed, and the rest of the trace is read.
		let finished = false;
		const finish = (code: number | null, signal: string | null) => {
			if (finished) return;
			finished = true;
			clock.clear();
			processes.stop();
			run.abort?.removeEventListener('abort', abort);
			tracer?.pause();
			const outOfMemory = killedForMemory(cgroups);
			const stoppedByGrader = stopped || outOfMemory;
			stop();
			removeCgroups(cgroups);
			tracer?.end();
			resolve({
				observations: observations.text(),
				key,
				stopped: stoppedByGrader,
				flooded: observations.flooded(),
				output: output.text(),
				code,
				signal,
				timedOut: clock.timedOut(),
				outOfMemory,
				started: processes.started(),
				attempt: watch?.attempt ?? null,
				traceFlooded: tracer?.flooded() ?? false,
				tracedCalls: watch?.calls ?? 0,
				stoppedFor,
				attemptPart: watch?.attemptPart ?? null,
				callsByPart: watch?.callsByPart ?? [],
				seconds: (Date.now() - started) / 1000
			});
		};
		// When the sandbox's first process exits, everything it started goes too; its pipes close soon after.
		child.on('exit', (code, signal) => {
			processes.count();
			stopRun(child, cgroups);
			setTimeout(() => {
				for (const stream of [child.stdout, child.stderr, channel])
					(stream as NodeJS.ReadableStream & { destroy(): void })?.destroy();
				finish(code, signal);
			}, 2000).unref();
		});
		child.on('close', (code, signal) => finish(code, signal));
	});
}
