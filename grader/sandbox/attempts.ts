// What a run tried, read from strace's record of its sandbox, and the first attempt to reach outside it.
//
//   const watch = new AttemptWatch(runView({ harness, folder, socket: true }));
//   for (const line of traceLines) watch.line(line);
//   watch.attempt   // '/proc/1/environ', 'another process (kill 1)', … or null
//
// strace runs outside the sandbox (sandbox.ts) and records, for bwrap and everything under it, each system call
// that names a path, a process or an address (`traced` below). Everything before the sandbox's node starts is
// bwrap setting the sandbox up, and is ignored. After that, the run's processes (node and anything it started)
// may name only what the sandbox gives them (`RunView`) and what node and the C library read on their own
// (`ownReads`). Any other path it opens, stats, lists, reads a link of or creates is an attempt, whether or not
// it exists in the sandbox (nothing outside does); so is starting a program, signalling or tracing a process
// that is not its own, connecting anywhere but its own loopback or PostgreSQL's socket, and io_uring (a way to
// open files without a system call strace would see).
//
// strace prints every string in hex (-xx), so a learner's path can never break a line's parsing.
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import { exercises } from '#harness/core/manifest.ts';
import { root } from './paths.ts';
import { socketInSandbox } from './postgres.ts';

// The calls that name another process: signalling it, or tracing or reading it.
const signals = new Set(['kill', 'tkill', 'tgkill', 'rt_sigqueueinfo', 'rt_tgsigqueueinfo', 'pidfd_open']);
const otherProcess = new Set(['ptrace', 'process_vm_readv', 'process_vm_writev']);
const noSuchProcess = (result: string) => /^-1 ESRCH\b/.test(result);

// The calls that make a process (a thread, CLONE_THREAD, is not one) and that send to an address.
const newProcess = new Set(['clone', 'clone3', 'fork', 'vfork']);
const sends = new Set(['sendto', 'sendmsg', 'sendmmsg']);

// The system calls strace records: %file names paths; fchdir moves to a folder by descriptor; the rest name
// processes or addresses. Process creation is seen here, at the call, from any code (a native library too).
export const traced = [
	'%file',
	'fchdir',
	'connect',
	...sends,
	...newProcess,
	...signals,
	...otherProcess,
	'io_uring_setup'
];

// Paths the sandbox gives a run (each one and everything under it), and folders above them it may name
// themselves (not the rest of what is in them).
// hidden: the grader's own host paths (its checkout), never given even where they fall under a given path: a
// checkout under the host's /tmp must not pass as the run's private /tmp.
// startsAt, for a Go run: the path its program names first (package channel's init, go/channel, before any
// learner package's init can run); the calls before it are the Go runtime's own start (it reads the cgroup's
// CPU limit through /proc/self/mountinfo) and are not judged, as bwrap's setup is not.
export type RunView = { given: string[]; folders: string[]; hidden: string[]; startsAt?: string };

// What the compiled harness gives every run at /wb, read once per harness (it is fixed for a grading), and the
// exercise folders in it, of which a run is given only its own.
type HarnessView = { given: string[]; exerciseFolders: Set<string> };
const harnessViews = new Map<string, HarnessView>();
function harnessView(harness: string): HarnessView {
	let view = harnessViews.get(harness);
	if (!view) {
		const folders = new Set(exercises().map((exercise) => exercise.folder));
		const inExercises = readdirSync(posix.join(harness, 'exercises'));
		const top = readdirSync(harness).filter((name) => name !== 'exercises');
		view = {
			given: [
				...top.map((name) => `/wb/${name}`),
				...inExercises.filter((name) => !folders.has(name)).map((name) => `/wb/exercises/${name}`)
			],
			exerciseFolders: new Set(inExercises.filter((name) => folders.has(name)))
		};
		harnessViews.set(harness, view);
	}
	return view;
}

// The sandbox's view, from the same facts sandbox.ts binds: /usr and its links, a private /tmp, the devices
// bwrap makes, the process's own /proc entries, the compiled harness at /wb without the other exercises'
// (empty) folders, and this run's own folder; PostgreSQL's socket folder for a run that has a database.
// A Go run (go-build.ts) has its program and job.json at /wb, none of the JavaScript harness.
// Where a Go run's program is in its sandbox (sandbox.ts binds it there); package channel names it first.
export const goProgram = '/wb/observe';

export function runView(run: {
	harness: string;
	folder: string;
	socket: boolean;
	program?: boolean;
}): RunView {
	const harness = run.program
		? { given: [goProgram, '/wb/job.json'], exerciseFolders: new Set<string>() }
		: harnessView(run.harness);
	return {
		...(run.program ? { startsAt: goProgram } : {}),
		given: [
			...['/usr', '/bin', '/lib', '/lib64', '/tmp', '/proc/self', '/proc/thread-self'],
			...['null', 'zero', 'full', 'random', 'urandom', 'tty', 'pts', 'ptmx', 'shm', 'fd'].map(
				(d) => `/dev/${d}`
			),
			...['stdin', 'stdout', 'stderr'].map((d) => `/dev/${d}`),
			...harness.given,
			...(harness.exerciseFolders.has(run.folder) ? [`/wb/exercises/${run.folder}`] : []),
			...(run.socket ? [socketInSandbox] : []),
			...(run.socket && run.program ? goDatabaseReads.map((read) => read.path) : [])
		],
		// Node's module loader stats the folders above a module it loads (it never lists them).
		folders: ['/wb', '/wb/exercises'],
		hidden: [root.replace(/\/$/, '')]
	};
}

// What node and the C library read on their own, in honest runs too (calibrated on every sample's runs and the
// workbook's exercises; none of it exists in the sandbox, so each read finds nothing).
export const ownReads: { path: string; why: string; under?: true }[] = [
	{ path: '/etc/ld.so.preload', why: "the dynamic loader looks for libraries to preload before node's main" },
	{ path: '/etc/ld.so.cache', why: "the dynamic loader's cache of where libraries are" },
	{ path: '/etc/ssl/openssl.cnf', why: "OpenSSL's configuration, read when node starts" },
	{ path: '/proc/sys/vm/overcommit_memory', why: 'V8 reads how the kernel grants memory, when node starts' },
	{
		path: '/sys/fs/cgroup',
		why: "libuv reads the process's cgroup memory limit to size node's heap",
		under: true
	},
	{ path: '/proc/meminfo', why: "libuv's total and free memory (the heap's size, os.freemem)" },
	{ path: '/proc/stat', why: "libuv's CPU times (os.cpus)" },
	{ path: '/proc/cpuinfo', why: 'the CPU model (os.cpus)' },
	{ path: '/proc/uptime', why: 'os.uptime' },
	{
		path: '/sys/devices/system/cpu',
		why: 'the C library counts CPUs here (os.availableParallelism)',
		under: true
	},
	{ path: '/etc/resolv.conf', why: "c-ares' setup when node's dns module loads (pg loads it, in 06)" },
	{ path: '/etc/nsswitch.conf', why: "c-ares' setup, and the C library's name lookup" },
	{ path: '/etc/netsvc.conf', why: "c-ares' setup" },
	{ path: '/etc/svc.conf', why: "c-ares' setup" },
	{ path: '/etc/hosts', why: "the C library's name lookup (a learner's 'localhost')" },
	{ path: '/etc/host.conf', why: "the C library's name lookup" },
	{ path: '/etc/gai.conf', why: "the C library's address sorting for name lookups" },
	{
		path: '/sys/kernel/mm/transparent_hugepage/hpage_pmd_size',
		why: "Go's runtime reads the huge page size when a Go submission's program starts"
	}
];

// What a Go run with a database (06) reads on its own, and no other run may: pgx's defaults, worked out
// before the run's own settings replace them, and the listen backlog of the harness's server. None of it
// exists in the sandbox.
export const goDatabaseReads: { path: string; why: string }[] = [
	{ path: '/var/run/postgresql', why: 'pgx looks for a socket folder for its default host' },
	{ path: '/private/tmp', why: 'pgx looks for a socket folder for its default host' },
	{ path: '/etc/passwd', why: "pgx's default user, from Go's os/user" },
	{
		path: '/proc/sys/net/core/somaxconn',
		why: "Go's net package reads the listen backlog, as a server listens"
	}
];

// The path is `under` or beneath it (checked for every path of every call: no string is made for it).
const within = (path: string, under: string) =>
	path.startsWith(under) &&
	(path.length === under.length || under.endsWith('/') || path.charCodeAt(under.length) === slash);
const slash = 47;

// The process's own memory (/proc/self/mem and a thread's): reading it is reading the observer's key. And its
// mountinfo, the one file in the sandbox that names the grader's own folders (each bind's source on the host).
const ownMemory = /^\/proc\/(self|thread-self)(\/task\/\d+)?\/(mem|mountinfo)$/;

function allowed(view: RunView, path: string): boolean {
	if (view.hidden.some((hidden) => within(path, hidden))) return false;
	if (ownMemory.test(path)) return false;
	if (view.given.some((given) => within(path, given))) return true;
	if (ownReads.some((own) => (own.under ? within(path, own.path) : path === own.path))) return true;
	if (view.folders.includes(path)) return true;
	// Node's resolver looks for node_modules/ and package.json in every folder above a module it loads.
	const above = (folder: string) => folder === '/' || view.folders.includes(folder) || allowed(view, folder);
	const modules = path.indexOf('/node_modules');
	if (modules >= 0 && /^\/node_modules(\/|$)/.test(path.slice(modules)))
		return above(path.slice(0, modules) || '/');
	if (posix.basename(path) === 'package.json') return above(posix.dirname(path));
	return false;
}

const fromHex = (quoted: string) =>
	Buffer.from(quoted.slice(1, -1).replace(/\\x/g, ''), 'hex').toString('utf8');

// One line of strace -f -xx: "<pid> name(args) = result", "<pid> name(args <unfinished ...>" or
// "<pid> <... name resumed>args) = result". Arguments are split at the top level (strings hold only \x escapes,
// so a string ends at the next quote: it is stepped over whole, never read a character at a time).
type Call = { pid: number; name: string; args: string[]; result: string | null; resumed: boolean };

// A line's pid and call name, read without its arguments: most of what bwrap's setup does needs no more.
const callHead = /^(\d+) +(?:<\.\.\. (\w+) resumed>|(\w+)\()/;
// The characters the split looks at, by their codes: '"', ',', '(', '[', '{' and ')', ']', '}'.
const [quote, comma] = [34, 44];
const opening = (char: number) => char === 40 || char === 91 || char === 123;
const closing = (char: number) => char === 41 || char === 93 || char === 125;

export function parseLine(line: string): Call | null {
	const head = callHead.exec(line);
	if (!head) return null;
	const resumed = head[2] !== undefined;
	const name = (head[2] ?? head[3])!;
	const rest = line.slice(head[0].length);
	const args: string[] = [];
	let depth = 0;
	let start = 0;
	let end = rest.length;
	for (let i = 0; i < rest.length; i++) {
		const char = rest.charCodeAt(i);
		if (char === quote) {
			const ends = rest.indexOf('"', i + 1);
			if (ends < 0) break;
			i = ends;
		} else if (opening(char)) depth++;
		else if (closing(char)) {
			if (depth === 0) {
				end = i;
				break;
			}
			depth--;
		} else if (char === comma && depth === 0) {
			args.push(rest.slice(start, i).trim());
			start = i + 1;
		}
	}
	const last = rest
		.slice(start, end)
		.replace(/<unfinished \.\.\.>$/, '')
		.trim();
	if (last) args.push(last);
	const result = /\)\s+=\s+(.*)$/.exec(rest.slice(end))?.[1] ?? null;
	return { pid: Number(head[1]), name, args: resumed ? [] : args, result, resumed };
}

// The links the kernel makes in /proc, resolved the way it does, one component at a time: /proc/self/root is the
// sandbox's root, …/cwd the working folder, …/fd/N what descriptor N was opened on (as the trace saw it), and
// /dev/fd, /dev/stdin, /dev/stdout, /dev/stderr lead there. A descriptor the trace did not see opened (the
// pipes the grader hands in) is fine to name itself, not to go through.
const devLinks: Record<string, string[]> = {
	fd: ['proc', 'self', 'fd'],
	stdin: ['proc', 'self', 'fd', '0'],
	stdout: ['proc', 'self', 'fd', '1'],
	stderr: ['proc', 'self', 'fd', '2']
};
// links: the links the run made itself (where each is, resolved, and its target as written), which the kernel
// follows as it meets them: with /tmp/up a link to /usr, /tmp/up/.. is the root, not /tmp.
type Where = { cwd: string; fds: Map<string, string>; links?: Map<string, string> };
const parts = (path: string) => path.split('/').filter((part) => part !== '');
// The kernel's own bound on links followed in one path (ELOOP past it).
const maxLinks = 40;

export function resolvePath(from: string, path: string, where: Where, followLast: boolean): string | null {
	const stack = path.startsWith('/') ? [] : parts(from);
	const rest = parts(path);
	let followed = 0;
	while (rest.length > 0) {
		const part = rest.shift()!;
		if (part === '.') continue;
		if (part === '..') {
			stack.pop();
			continue;
		}
		stack.push(part);
		if (rest.length === 0 && !followLast) break;
		const target = where.links?.size ? where.links.get(`/${stack.join('/')}`) : undefined;
		if (target !== undefined) {
			if (++followed > maxLinks) return null;
			// A relative target is read from the link's folder, an absolute one from the root.
			if (target.startsWith('/')) stack.splice(0);
			else stack.pop();
			rest.unshift(...parts(target));
			continue;
		}
		if (stack.length === 2 && stack[0] === 'dev' && devLinks[part]) {
			stack.splice(0, 2, ...devLinks[part]!);
			continue;
		}
		const own = stack[0] === 'proc' && (stack[1] === 'self' || stack[1] === 'thread-self');
		if (!own) continue;
		const at = stack[1] === 'self' && stack[2] === 'task' && stack.length >= 4 ? 4 : 2;
		if (stack.length === at + 1 && part === 'root') stack.splice(0);
		else if (stack.length === at + 1 && part === 'cwd') stack.splice(0, stack.length, ...parts(where.cwd));
		else if (stack.length === at + 2 && stack[at] === 'fd') {
			const opened = where.fds.get(part);
			if (opened !== undefined) stack.splice(0, stack.length, ...parts(opened));
			else if (rest.length > 0) return null;
		}
	}
	return `/${stack.join('/')}`;
}

// Calls that act on the link itself, not on where it leads, when it is the last component.
const onTheLink = /^(l|readlink|unlink|rename|rmdir|symlink|link)/;

const neverInARun = new Set(['mount', 'umount2', 'pivot_root', 'chroot', 'swapon', 'swapoff', 'acct']);
const takesDirectory = /at2?$|^statx$|^open_tree$|^move_mount$|^fanotify_mark$|^name_to_handle_at$/;

// A path a call names: as the trace shows it, resolved, and whether the run may name it.
type CallPath = { shown: string; resolved: string; ok: boolean };

// A batch's parts (grader/trusted/run-batch.ts), in order: the exercise folder each gives the run, and the path its
// marker names (grader/channel/job.ts); the last names the batch's end, with no folder.
export type Part = { folder: string; marker: string };

// What a call that makes, moves or removes a link does to the run's links, once it has returned 0: a symlink
// made (its target as written), a hard link to a link (a link too, unless it follows it), a rename (everything
// under the old name moves; RENAME_EXCHANGE swaps the two), an unlink or rmdir. Paths as resolved, not following
// the last component (every one of these acts on the link itself).
type LinkChange = (links: Map<string, string>) => void;
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
function takeUnder(links: Map<string, string>, folder: string): [string, string][] {
	const taken = [...links].filter(([at]) => under(at, folder));
	for (const [at] of taken) links.delete(at);
	return taken.map(([at, target]) => [at.slice(folder.length), target]);
}
function linkChange(call: Call, paths: CallPath[]): LinkChange | null {
	const [from, to] = paths.map((path) => path.resolved);
	if (call.name.startsWith('symlink') && from !== undefined && to !== undefined) {
		const target = paths[0]!.shown;
		return (links) => void links.set(to, target);
	}
	if (/^link(at)?$/.test(call.name) && from !== undefined && to !== undefined) {
		if (/AT_SYMLINK_FOLLOW/.test(call.args.join(','))) return null;
		return (links) => {
			const target = links.get(from);
			if (target !== undefined) links.set(to, target);
		};
	}
	if (/^rename/.test(call.name) && from !== undefined && to !== undefined) {
		const exchange = /RENAME_EXCHANGE/.test(call.args.join(','));
		return (links) => {
			const moved = takeUnder(links, from);
			const replaced = takeUnder(links, to);
			for (const [rest, target] of moved) links.set(`${to}${rest}`, target);
			if (exchange) for (const [rest, target] of replaced) links.set(`${from}${rest}`, target);
		};
	}
	if (/^(unlink|rmdir)/.test(call.name) && from !== undefined) return (links) => void takeUnder(links, from);
	return null;
}

export class AttemptWatch {
	attempt: string | null = null;
	// The run's own calls judged so far (for the bench: what the tracer costs grows with them).
	calls = 0;
	// In a batch: the part the attempt was made in (0 where that cannot be told: a thread's call, a marker out of
	// its turn), and the calls judged in each part.
	attemptPart: number | null = null;
	callsByPart: number[] = [];
	private part = -1;
	private markers = new Map<string, number>();
	private base: RunView;
	private root: number | null = null;
	private node: number | null = null;
	// A Go run's program has named view.startsAt: its runtime's start is over, and its own calls are judged.
	private begun = false;
	// bwrap's own processes (the first, its PID namespace's init): what they do is the sandbox's setup.
	private setup = new Set<number>();
	private cwd = '/wb';
	private pendingChdir = new Map<number, string>();
	// What each descriptor the run opened by name was opened on (the run is one process: a second one forfeits).
	private fds = new Map<string, string>();
	private pendingOpen = new Map<number, string>();
	private pendingSignal = new Map<number, string>();
	// The links the run made (symlink), moved (rename), doubled (link) or removed, each where it is and its target
	// as written: the kernel follows them in any path that goes through one. A call not yet returned (another
	// thread printed a line before it did) may or may not have changed them: a path is judged both ways then.
	private links = new Map<string, string>();
	private pendingLinks = new Map<number, LinkChange>();

	// parts: a batch's. Before its first marker the run is given no exercise folder; from part n's marker on, part
	// n's alone, so an exercise that reads another's files in a batch is seen as it would be alone.
	constructor(
		private view: RunView,
		private parts?: Part[]
	) {
		this.base = view;
		for (const [n, part] of (parts ?? []).entries()) this.markers.set(part.marker, n);
	}

	// A marker named by node's main thread: the next part begins. Any other (again, early, by a thread) is no
	// observer's: an attempt, at part 0, so no part of the batch is taken from it.
	private marked(call: Call): string | null | undefined {
		const named = this.pathsOf(call).find((path) => this.markers.has(path.resolved));
		if (!named) return undefined;
		const n = this.markers.get(named.resolved)!;
		if (call.pid !== this.node || n !== this.part + 1) {
			this.part = 0;
			return `a part's marker out of its turn (${named.shown})`;
		}
		this.part = n;
		const folder = this.parts![n]!.folder;
		this.view = folder ? { ...this.base, given: [...this.base.given, `/wb/exercises/${folder}`] } : this.base;
		return null;
	}

	// Reads one line of the trace; returns the attempt when this line is the first.
	line(text: string): string | null {
		if (this.attempt) return null;
		// The pid and the name first: a line of the sandbox's setup is never read further, but for an execve.
		const head = callHead.exec(text);
		if (!head) return null;
		const pid = Number(head[1]);
		this.root ??= pid;
		if (this.node === null) {
			// The sandbox's node starts with the first program another process than the first one runs.
			const name = head[2] ?? head[3];
			const execs = name === 'execve' || name === 'execveat';
			if (execs && pid !== this.root && parseLine(text)!.result === '0') {
				this.node = pid;
				// Its own unfinished execve (another process printed a line before it returned) is not setup.
				this.setup.delete(pid);
			} else this.setup.add(pid);
			return null;
		}
		if (this.setup.has(pid)) return null;
		const call = parseLine(text)!;
		if (this.view.startsAt && !this.begun) {
			if (!call.resumed && this.pathsOf(call).some((path) => path.resolved === this.view.startsAt))
				this.begun = true;
			return null;
		}
		this.calls++;
		const found = this.seen(call);
		// Counted in the part it was made in (a marker in the part it opens).
		if (this.parts) {
			const part = Math.max(this.part, 0);
			this.callsByPart[part] = (this.callsByPart[part] ?? 0) + 1;
		}
		if (found && this.parts) this.attemptPart = call.pid === this.node ? Math.max(this.part, 0) : 0;
		return found;
	}

	private seen(call: Call): string | null {
		if (this.parts && !call.resumed) {
			const marked = this.marked(call);
			if (marked !== undefined) {
				if (marked) this.attempt = marked;
				return marked;
			}
		}
		if (call.resumed) {
			const to = this.pendingChdir.get(call.pid);
			this.pendingChdir.delete(call.pid);
			if (to && call.result === '0') this.cwd = to;
			const opened = this.pendingOpen.get(call.pid);
			this.pendingOpen.delete(call.pid);
			if (opened && call.result && /^\d+$/.test(call.result)) this.fds.set(call.result, opened);
			const signalled = this.pendingSignal.get(call.pid);
			this.pendingSignal.delete(call.pid);
			if (signalled && call.result !== null && noSuchProcess(call.result)) this.attempt = signalled;
			const change = this.pendingLinks.get(call.pid);
			this.pendingLinks.delete(call.pid);
			if (change && call.result === '0') change(this.links);
			return this.attempt;
		}
		const found = this.judge(call);
		if (found) this.attempt = found;
		return found;
	}

	// A pid as the run names it, in its own PID namespace: 1 is bwrap's init (the sandbox's, not the run's), 0 and
	// below are process groups or everyone, and a pid that names no process there (ESRCH) is no process of the run's:
	// each is an attempt. Any other pid is node's own, or one of its threads (a process of its own forfeits anyway).
	private signalled(call: Call): string | null {
		const target = call.args[0] ?? '';
		const attempt = `another process (${call.name} ${target})`;
		if (!/^\d+$/.test(target) || Number(target) <= 1) return attempt;
		if (call.result === null) this.pendingSignal.set(call.pid, attempt);
		return call.result !== null && noSuchProcess(call.result) ? attempt : null;
	}

	private judge(call: Call): string | null {
		const { name, args } = call;
		if (name === 'execve' || name === 'execveat')
			return `a program (${this.pathsOf(call)[0]?.shown ?? name})`;
		if (name === 'io_uring_setup') return 'io_uring (file access the trace does not see)';
		if (otherProcess.has(name)) return `another process (${name})`;
		if (signals.has(name)) return this.signalled(call);
		if (name === 'connect') return this.connects(args[1] ?? '');
		if (newProcess.has(name)) {
			const thread = name.startsWith('clone') && /\bCLONE_THREAD\b/.test(args.join(','));
			return thread ? null : `a new process (${name})`;
		}
		if (sends.has(name)) {
			for (const [address] of args.join(',').matchAll(/\{sa_family=[^}]*\}/g)) {
				const found = this.connects(address);
				if (found) return found;
			}
			return null;
		}
		if (name === 'fchdir') {
			const to = this.fds.get(args[0] ?? '');
			if (to === undefined) return 'a folder by a descriptor it did not open by name (fchdir)';
			if (call.result === '0') this.cwd = to;
			else if (call.result === null) this.pendingChdir.set(call.pid, to);
			return null;
		}
		const paths = this.pathsOf(call);
		if (neverInARun.has(name)) return `${name} ${paths.map((path) => path.shown).join(' ')}`.trim();
		for (const path of paths) if (!path.ok) return path.shown;
		const change = linkChange(call, paths);
		if (change && call.result === '0') change(this.links);
		else if (change && call.result === null) this.pendingLinks.set(call.pid, change);
		if (name === 'chdir' && paths[0]) {
			if (call.result === '0') this.cwd = paths[0].resolved;
			else if (call.result === null) this.pendingChdir.set(call.pid, paths[0].resolved);
		}
		if (/^(open|openat|openat2|creat)$/.test(name) && paths.length > 0) {
			const opened = paths[paths.length - 1]!.resolved;
			if (call.result === null) this.pendingOpen.set(call.pid, opened);
			else if (/^\d+$/.test(call.result)) this.fds.set(call.result, opened);
		}
		return null;
	}

	// Every path a call names (namedPaths). A batch looks for its marker among a call's paths before it judges them:
	// worked out once for both, for the same call in the same view.
	private lastPaths: { call: Call; view: RunView; paths: CallPath[] } | null = null;
	private pathsOf(call: Call): CallPath[] {
		const last = this.lastPaths;
		if (last?.call === call && last.view === this.view) return last.paths;
		const paths = this.namedPaths(call);
		this.lastPaths = { call, view: this.view, paths };
		return paths;
	}

	// Every path a call names, resolved against the run's working folder (or the link's folder, for a link's target).
	private namedPaths(call: Call): CallPath[] {
		// What readlink writes back (the link's target, "pipe:[…]" for a pipe) is its answer, not a path it named.
		const output = call.name === 'readlink' ? 1 : call.name === 'readlinkat' ? 2 : -1;
		const named = call.args
			.map((arg, i) => ({ arg, i, before: call.args[i - 1] ?? '' }))
			.filter(({ arg, i }) => i !== output && /^"(\\x[0-9a-f]{2})*"$/.test(arg))
			.map(({ arg, before }) => ({ path: fromHex(arg), before }))
			.filter(({ path }) => path !== '');
		// An extended attribute's name is not a path; a link's target is one, relative to the link's folder.
		const paths = call.name.includes('xattr') ? named.slice(0, 1) : named;
		const followLast =
			!onTheLink.test(call.name) && !/AT_SYMLINK_NOFOLLOW|O_NOFOLLOW/.test(call.args.join(','));
		const known = { cwd: this.cwd, fds: this.fds, links: this.links };
		const resolved = this.resolveAll(call, paths, followLast, known);
		if (this.pendingLinks.size === 0) return resolved;
		// With a link call not yet returned, as if every one had been made, too: a path must pass both ways.
		const changed = new Map(this.links);
		for (const change of this.pendingLinks.values()) change(changed);
		const other = this.resolveAll(call, paths, followLast, { ...known, links: changed });
		return resolved.map((path, i) => ({ ...path, ok: path.ok && other[i]!.ok }));
	}

	private resolveAll(
		call: Call,
		paths: { path: string; before: string }[],
		followLast: boolean,
		where: Where
	): CallPath[] {
		const resolved = paths.map(({ path, before }) => {
			const byFolder = takesDirectory.test(call.name) && /^\d+$/.test(before);
			const folder = byFolder ? this.fds.get(before) : this.cwd;
			if (byFolder && folder === undefined && !path.startsWith('/')) {
				// Relative to a descriptor the trace did not see opened: climbing out of it, or into what only
				// /proc's own folders hold (root, cwd, fd), is an attempt.
				const first = parts(path)[0] ?? '';
				const climbs = path.split('/').includes('..') || ['root', 'cwd', 'fd', 'task'].includes(first);
				return { shown: path, resolved: path, ok: !climbs };
			}
			const full = resolvePath(folder ?? this.cwd, path, where, followLast);
			return { shown: path, resolved: full ?? path, ok: full !== null && allowed(this.view, full) };
		});
		if (call.name.startsWith('symlink') && resolved.length === 2) {
			// A link's target is judged where it leads, from the link's folder, through /proc's links too.
			const target = resolvePath(posix.dirname(resolved[1]!.resolved), paths[0]!.path, where, true);
			const ok = target !== null && allowed(this.view, target);
			resolved[0] = { shown: paths[0]!.path, resolved: target ?? paths[0]!.path, ok };
		}
		return resolved;
	}

	private connects(address: string): string | null {
		const family = /sa_family=(\w+)/.exec(address)?.[1] ?? 'an unknown family';
		if (family === 'AF_UNIX') {
			const path = /sun_path=(@?)("(?:\\x[0-9a-f]{2})*")/.exec(address);
			if (!path) return 'a socket with no path';
			// An abstract name (no file, "@…") comes padded with NULs to the address's length: said without them. A
			// path is resolved as any other the run names, through its links.
			const abstract = path[1] === '@';
			const name = fromHex(path[2]!).replace(/\0+$/, '');
			const named = `${path[1]}${name}`;
			const where = { cwd: this.cwd, fds: this.fds, links: this.links };
			const full = abstract ? null : resolvePath(this.cwd, name, where, true);
			const socket = this.view.given.includes(socketInSandbox);
			const postgres = full !== null && socket && within(full, socketInSandbox);
			const nscd = full === '/var/run/nscd/socket' || full === '/run/nscd/socket';
			return postgres || nscd ? null : `a socket (${named})`;
		}
		// The run's own network namespace has only its loopback: the harness's server for 06, nothing of anyone else.
		const ip = /inet_addr\(("(?:\\x[0-9a-f]{2})*")\)/.exec(address)?.[1];
		const ip6 = /inet_pton\(AF_INET6, ("(?:\\x[0-9a-f]{2})*")/.exec(address)?.[1];
		if (family === 'AF_INET' && ip && fromHex(ip).startsWith('127.')) return null;
		if (family === 'AF_INET6' && ip6 && ['::1', '::ffff:127.0.0.1'].includes(fromHex(ip6))) return null;
		if (family === 'AF_UNSPEC') return null;
		// The kernel, asked about the run's own network namespace (the C library's name lookup does it).
		if (family === 'AF_NETLINK' && /nl_pid=0\b/.test(address)) return null;
		const where = ip ? fromHex(ip) : ip6 ? fromHex(ip6) : family;
		return `the network (${where})`;
	}
}
