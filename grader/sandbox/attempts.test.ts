// The attempt watch on hand-written strace lines: bwrap's setup is ignored, the sandbox's own paths and node's
// own reads pass, and every way out (a path, a process, a program, an address) is named once.
import { describe, expect, it } from 'vitest';
import { AttemptWatch, goDatabaseReads, goProgram, parseLine, runView, type RunView } from './attempts.ts';

const hex = (text: string) =>
	`"${[...Buffer.from(text)].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')}"`;
const view: RunView = {
	given: ['/usr', '/tmp', '/proc/self', '/dev/null', '/wb/inside', '/wb/exercises/01-first-handler'],
	folders: ['/wb', '/wb/exercises'],
	hidden: ['/tmp/checkout']
};
// A run as strace prints it: the shell becomes bwrap (pid 10), bwrap's child sets up (11), node starts (12).
const start = [
	`10 execve(${hex('/usr/bin/bwrap')}, [${hex('bwrap')}], 0x0 /* 1 var */) = 0`,
	`11 mount(${hex('/oldroot/usr')}, ${hex('/newroot/usr')}, NULL, MS_BIND, NULL) = 0`,
	`11 openat(AT_FDCWD, ${hex('/home/grader/secret')}, O_RDONLY) = 3`,
	`12 execve(${hex('/usr/bin/node')}, [${hex('node')}], 0x0 /* 6 vars */) = 0`
];
function watch(...lines: string[]): string | null {
	const one = new AttemptWatch(view);
	for (const line of [...start, ...lines]) one.line(line);
	return one.attempt;
}
const open = (path: string, pid = 12) =>
	`${pid} openat(AT_FDCWD, ${hex(path)}, O_RDONLY|O_CLOEXEC) = -1 ENOENT`;

describe('parseLine', () => {
	it('splits the top-level arguments and reads the result', () => {
		const call = parseLine(`7 statx(AT_FDCWD, ${hex('/a,b')}, 0, STATX_ALL, {stx_mode=S_IFREG, ...}) = 0`)!;
		expect(call).toMatchObject({ pid: 7, name: 'statx', result: '0', resumed: false });
		expect(call.args).toHaveLength(5);
	});

	it('reads an unfinished call and its resumption', () => {
		expect(parseLine(`7 openat(AT_FDCWD, ${hex('/x')}, O_RDONLY <unfinished ...>`)).toMatchObject({
			args: ['AT_FDCWD', hex('/x'), 'O_RDONLY'],
			result: null
		});
		expect(parseLine('7 <... chdir resumed>) = 0')).toMatchObject({
			name: 'chdir',
			resumed: true,
			result: '0'
		});
	});
});

describe('AttemptWatch', () => {
	it("ignores bwrap's setup, and passes the sandbox's paths, node's own reads and the resolver's probes", () => {
		expect(
			watch(
				open('/wb/inside/main.js'),
				open('/usr/lib/x86_64-linux-gnu/libc.so.6'),
				open('/etc/ld.so.cache'),
				open('/proc/sys/vm/overcommit_memory'),
				open('/sys/fs/cgroup/memory/memory.limit_in_bytes'),
				open('/wb/exercises/node_modules/pg/package.json'),
				open('/node_modules/pg'),
				open('/wb/package.json'),
				`13 statx(AT_FDCWD, ${hex('/wb/exercises')}, 0, STATX_ALL, 0x1) = 0`,
				`12 newfstatat(3, ${hex('')}, {st_mode=S_IFREG}, AT_EMPTY_PATH) = 0`,
				`12 openat(AT_FDCWD, ${hex('inside/x.js')}, O_RDONLY) = 3`,
				'12 kill(2, SIGTERM) = 0',
				'12 tgkill(2, 3, SIGPROF) = 0',
				`12 connect(5, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(${hex('127.0.0.1')})}, 16) = 0`
			)
		).toBeNull();
	});

	it("judges node's own process when its execve was printed in two parts", () => {
		const one = new AttemptWatch(view);
		const split = [
			start[0]!,
			`12 execve(${hex('/usr/bin/node')}, [${hex('node')}], 0x0 /* 6 vars */ <unfinished ...>`,
			`11 chdir(${hex('/wb')}) = 0`,
			'12 <... execve resumed>) = 0',
			'12 kill(1, SIGKILL) = 0'
		];
		for (const line of split) one.line(line);
		expect(one.attempt).toBe('another process (kill 1)');
	});

	it('names a path outside, absolute or relative, existing or not, in any process of the run', () => {
		expect(watch(open('/home/grader/solutions/01/handler.js'))).toBe('/home/grader/solutions/01/handler.js');
		expect(watch(open('../solutions/x.js'))).toBe('../solutions/x.js');
		expect(watch(open('/wb/solutions/x.js', 13))).toBe('/wb/solutions/x.js');
		expect(watch(open('/wb/exercises/02-same-event/handler.js'))).toBe(
			'/wb/exercises/02-same-event/handler.js'
		);
		expect(watch(open('/proc/1/environ'))).toBe('/proc/1/environ');
		expect(watch(`12 openat(AT_FDCWD, ${hex('/')}, O_RDONLY|O_DIRECTORY) = 3`)).toBe('/');
		expect(watch(open('/etc/passwd'))).toBe('/etc/passwd');
	});

	it("names the grader's checkout even under the host's /tmp, which in the sandbox is the run's own", () => {
		expect(watch(open('/tmp/checkout/solutions/01-first-handler/handler.ts'))).toBe(
			'/tmp/checkout/solutions/01-first-handler/handler.ts'
		);
		expect(watch(open('/tmp/checkout'))).toBe('/tmp/checkout');
		expect(watch(open('/tmp/checkout-of-mine/notes.txt'))).toBeNull();
	});

	it('follows the working folder, and a link made in /tmp to a place outside', () => {
		expect(watch(`12 chdir(${hex('/tmp')}) = 0`, open('../home/x'))).toBe('../home/x');
		expect(watch(`12 symlink(${hex('../home')}, ${hex('/tmp/h')}) = 0`)).toBe('../home');
		expect(watch(`12 symlink(${hex('x')}, ${hex('/tmp/h')}) = 0`)).toBeNull();
		expect(watch(`12 openat(3, ${hex('../../x')}, O_RDONLY) = -1 ENOENT`)).toBe('../../x');
	});

	it('names a program, another process, an address and io_uring', () => {
		expect(watch(`14 execve(${hex('/usr/bin/sleep')}, [${hex('sleep')}], 0x0) = 0`)).toBe(
			'a program (/usr/bin/sleep)'
		);
		expect(watch('12 kill(1, SIGKILL) = 0')).toBe('another process (kill 1)');
		expect(watch('12 kill(-1, SIGKILL) = -1 ESRCH')).toBe('another process (kill -1)');
		expect(watch('12 kill(0, SIGKILL) = 0')).toBe('another process (kill 0)');
		// A pid that is no process in the run's PID namespace: the grader's, a classmate's, anyone's outside.
		expect(watch('12 kill(4711, SIGKILL) = -1 ESRCH (No such process)')).toBe('another process (kill 4711)');
		expect(watch('12 pidfd_open(4711, 0) = -1 ESRCH (No such process)')).toBe(
			'another process (pidfd_open 4711)'
		);
		expect(
			watch('12 kill(4711, SIGKILL <unfinished ...>', '12 <... kill resumed>) = -1 ESRCH (No such process)')
		).toBe('another process (kill 4711)');
		expect(watch('12 ptrace(PTRACE_ATTACH, 1) = -1 EPERM')).toBe('another process (ptrace)');
		expect(
			watch(
				`12 connect(5, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(${hex('10.0.0.1')})}, 16)`
			)
		).toBe('the network (10.0.0.1)');
		expect(watch(`12 connect(5, {sa_family=AF_UNIX, sun_path=${hex('/run/docker.sock')}}, 110) = -1`)).toBe(
			'a socket (/run/docker.sock)'
		);
		// An abstract socket (no file): said by its name, without the NULs that pad it to the address's length.
		const abstract = `@${hex('.s.PGSQL.5432\0\0\0')}`;
		expect(watch(`12 connect(5, {sa_family=AF_UNIX, sun_path=${abstract}}, 110) = -1`)).toBe(
			'a socket (@.s.PGSQL.5432)'
		);
		expect(watch('12 io_uring_setup(8, 0x1) = 5')).toBe('io_uring (file access the trace does not see)');
	});

	it('reaches PostgreSQL only where the run has a database', () => {
		const socket = `12 connect(5, {sa_family=AF_UNIX, sun_path=${hex('/run/postgresql/.s.PGSQL.5432')}}, 110) = 0`;
		expect(watch(socket)).toBe('a socket (/run/postgresql/.s.PGSQL.5432)');
		const withDatabase = new AttemptWatch({ ...view, given: [...view.given, '/run/postgresql'] });
		for (const line of [...start, socket]) withDatabase.line(line);
		expect(withDatabase.attempt).toBeNull();
		// Its socket through a link the run made to its folder is its socket still.
		const linked = new AttemptWatch({ ...view, given: [...view.given, '/run/postgresql'] });
		const link = `12 symlink(${hex('/run/postgresql')}, ${hex('/tmp/pg')}) = 0`;
		const through = `12 connect(5, {sa_family=AF_UNIX, sun_path=${hex('/tmp/pg/.s.PGSQL.5432')}}, 110) = 0`;
		for (const line of [...start, link, through]) linked.line(line);
		expect(linked.attempt).toBeNull();
	});
});

// Judged by what the kernel does, not by the path's look: the links in /proc, and the calls of any code.
describe('AttemptWatch, by effect', () => {
	it('resolves /proc/self/root, …/cwd and …/fd/N as the kernel does, one component at a time', () => {
		expect(watch(open('/proc/self/root/proc/1/environ'))).toBe('/proc/self/root/proc/1/environ');
		expect(watch(open('/proc/thread-self/root/etc/passwd'))).toBe('/proc/thread-self/root/etc/passwd');
		expect(watch(open('/proc/self/task/12/root/home'))).toBe('/proc/self/task/12/root/home');
		// ".." after the root link is the root's own "..": the root again, never back into /proc/self.
		expect(watch(open('/proc/self/root/../proc/1/environ'))).toBe('/proc/self/root/../proc/1/environ');
		expect(watch(open('/proc/self/cwd/../solutions/x.ts'))).toBe('/proc/self/cwd/../solutions/x.ts');
		expect(
			watch(open('/proc/self/root/usr/lib/libc.so.6'), open('/proc/self/cwd/inside/main.js'))
		).toBeNull();
		// A folder opened, then a path relative to it, or through its /proc/self/fd link.
		const folder = `12 openat(AT_FDCWD, ${hex('/proc/self')}, O_RDONLY|O_DIRECTORY) = 7`;
		expect(watch(folder, `12 openat(7, ${hex('root/proc/1/environ')}, O_RDONLY) = -1 EACCES`)).toBe(
			'root/proc/1/environ'
		);
		expect(watch(folder, open('/proc/self/fd/7/root/etc/shadow'))).toBe('/proc/self/fd/7/root/etc/shadow');
		expect(watch(`12 openat(9, ${hex('root/etc')}, O_RDONLY) = -1 ENOENT`)).toBe('root/etc');
		expect(watch(`12 fchdir(9) = 0`)).toBe('a folder by a descriptor it did not open by name (fchdir)');
		expect(watch(`12 symlink(${hex('/proc/self/root/home')}, ${hex('/tmp/r')}) = 0`)).toBe(
			'/proc/self/root/home'
		);
		expect(watch(open('/proc/self/mem'))).toBe('/proc/self/mem');
		expect(watch(open('/proc/thread-self/mountinfo'))).toBe('/proc/thread-self/mountinfo');
		expect(watch(open('/proc/self/root/proc/self/mountinfo'))).toBe('/proc/self/root/proc/self/mountinfo');
	});

	it('follows the links the run made, moved, doubled or removed, as the kernel meets them', () => {
		const up = `12 symlink(${hex('/usr')}, ${hex('/tmp/up')}) = 0`;
		// The kernel climbs from where the link leads: /tmp/up/.. is the root, not /tmp.
		expect(watch(up, open('/tmp/up/../proc/1/environ'))).toBe('/tmp/up/../proc/1/environ');
		expect(watch(up, open('/tmp/up/lib/../../proc/self/mountinfo'))).toBe(
			'/tmp/up/lib/../../proc/self/mountinfo'
		);
		expect(watch(up, open('/tmp/up/lib/libc.so.6'), open('/tmp/up/../tmp/x'))).toBeNull();
		// A link that was not made (the name was taken) is not followed; one removed is no longer.
		expect(
			watch(`12 symlink(${hex('/usr')}, ${hex('/tmp/up')}) = -1 EEXIST`, open('/tmp/up/../x'))
		).toBeNull();
		expect(watch(up, `12 unlink(${hex('/tmp/up')}) = 0`, open('/tmp/up/../x'))).toBeNull();
		expect(watch(up, `12 unlink(${hex('/tmp/up')}) = -1 EBUSY`, open('/tmp/up/../x'))).toBe('/tmp/up/../x');
		// Relative targets from the link's folder, a folder of links renamed, a hard link to a link, a chain.
		const moved = [
			`12 mkdir(${hex('/tmp/d')}, 0777) = 0`,
			`12 symlink(${hex('../../usr')}, ${hex('/tmp/d/l')}) = 0`,
			`12 rename(${hex('/tmp/d')}, ${hex('/tmp/e')}) = 0`,
			`12 link(${hex('/tmp/e/l')}, ${hex('/tmp/m')}) = 0`,
			`12 symlinkat(${hex('m/bin')}, AT_FDCWD, ${hex('/tmp/n')}) = 0`
		];
		expect(watch(...moved, open('/tmp/m/../proc/1/environ'))).toBe('/tmp/m/../proc/1/environ');
		expect(watch(...moved, open('/tmp/n/../../home'))).toBe('/tmp/n/../../home');
		expect(watch(...moved, open('/tmp/d/l/../x'))).toBeNull();
		const swapped = `12 renameat2(AT_FDCWD, ${hex('/tmp/up')}, AT_FDCWD, ${hex('/tmp/dir')}, RENAME_EXCHANGE) = 0`;
		expect(watch(up, swapped, open('/tmp/dir/../home'))).toBe('/tmp/dir/../home');
		expect(watch(up, swapped, open('/tmp/up/../x'))).toBeNull();
		// A working folder moved into a link, and a folder opened through one.
		expect(watch(up, `12 chdir(${hex('/tmp/up')}) = 0`, open('../proc/1/environ'))).toBe('../proc/1/environ');
		const folder = `12 openat(AT_FDCWD, ${hex('/tmp/up')}, O_RDONLY|O_DIRECTORY) = 7`;
		expect(watch(up, folder, `12 openat(7, ${hex('../home')}, O_RDONLY) = -1 ENOENT`)).toBe('../home');
		// Links that lead to each other end as the kernel's do (ELOOP): judged as a path that goes nowhere it may.
		const loop = [
			`12 symlink(${hex('/tmp/b')}, ${hex('/tmp/a')}) = 0`,
			`12 symlink(${hex('/tmp/a')}, ${hex('/tmp/b')}) = 0`
		];
		expect(watch(...loop, open('/tmp/a/x'))).toBe('/tmp/a/x');
		// A link call another thread printed a line before it returned: judged both ways until it has.
		const pending = `13 symlink(${hex('/usr')}, ${hex('/tmp/up')} <unfinished ...>`;
		expect(watch(pending, open('/tmp/up/../home'))).toBe('/tmp/up/../home');
		expect(watch(pending, `13 <... symlink resumed>) = -1 EEXIST`, open('/tmp/up/../x'))).toBeNull();
	});

	it("passes reading its own descriptors: readlink's answer is not a path it named", () => {
		const pipe = hex('pipe:[416840]');
		expect(
			watch(
				`12 readlink(${hex('/proc/self/fd/1')}, ${pipe}, 4096) = 13`,
				`12 readlinkat(AT_FDCWD, ${hex('/proc/self/fd/2')}, ${hex('socket:[1]')}, 4096) = 10`,
				`12 readlink(${hex('/proc/self/exe')}, ${hex('/usr/bin/node')}, 8191) = 13`,
				`12 newfstatat(AT_FDCWD, ${hex('/proc/self/root')}, {st_mode=S_IFDIR}, AT_SYMLINK_NOFOLLOW) = 0`,
				open('/proc/self/fd/3'),
				open('/dev/fd/1')
			)
		).toBeNull();
	});

	it('sees every process made, from any code, and passes threads (strace lines of node and of fork, vfork)', () => {
		const thread =
			'12 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f47, parent_tid=0x7f47, exit_signal=0, stack=0x7f47, stack_size=0x7ffe80, tls=0x7f47} => {parent_tid=[20327]}, 88) = 20327';
		expect(watch(thread)).toBeNull();
		expect(
			watch(
				'12 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fe1) = 20378'
			)
		).toBe('a new process (clone)');
		expect(watch('12 vfork()                           = 20379')).toBe('a new process (vfork)');
		expect(watch('12 fork( <unfinished ...>')).toBe('a new process (fork)');
		expect(
			watch(
				'12 clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x1, stack_size=0x9000}, 88) = 31'
			)
		).toBe('a new process (clone3)');
	});

	it('traces every send to an address, on any family', () => {
		const udp = `12 sendmsg(18, {msg_name={sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr(${hex('203.0.113.7')})}, msg_namelen=16, msg_iov=[{iov_base=${hex('hi')}, iov_len=2}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 2`;
		expect(watch(udp)).toBe('the network (203.0.113.7)');
		expect(
			watch(
				`12 sendto(5, ${hex('x')}, 1, 0, {sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, ${hex('2001:db8::1')}, &sin6_addr), sin6_scope_id=0}, 28) = 1`
			)
		).toBe('the network (2001:db8::1)');
		expect(
			watch(`12 sendto(5, ${hex('x')}, 1, 0, {sa_family=AF_UNIX, sun_path=@${hex('grader')}}, 9) = 1`)
		).toBe('a socket (@grader)');
		expect(
			watch(`12 sendto(5, ${hex('x')}, 1, 0, {sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ALL)}, 20) = 1`)
		).toBe('the network (AF_PACKET)');
		// Its own loopback, a connected socket (no address), and the kernel's netlink: its own namespace.
		expect(
			watch(
				`12 sendto(5, ${hex('x')}, 1, 0, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(${hex('127.0.0.1')})}, 16) = 1`,
				`12 sendto(5, ${hex('x')}, 1, MSG_NOSIGNAL, NULL, 0) = 1`,
				`12 sendto(6, [{nlmsg_len=20, nlmsg_type=RTM_GETADDR}], 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20`
			)
		).toBeNull();
	});
});

describe("a Go run's view", () => {
	// A Go run as strace prints it: bwrap, then the program, whose package channel names itself first.
	const goRun = (socket: boolean, ...lines: string[]) => {
		const one = new AttemptWatch(
			runView({ harness: '/nowhere', folder: '06-ticket-endpoint', socket, program: true })
		);
		for (const line of [
			start[0]!,
			start[1]!,
			`12 execve(${hex(goProgram)}, [${hex('observe')}], 0x0 /* 6 vars */) = 0`,
			`12 faccessat(AT_FDCWD, ${hex(goProgram)}, X_OK) = 0`,
			...lines
		])
			one.line(line);
		return one.attempt;
	};

	it("lets a run with a database read what pgx and Go's server read on their own, and no other run", () => {
		const own = goDatabaseReads.map((read) => open(read.path));
		expect(goRun(true, ...own)).toBeNull();
		expect(goRun(true, open('/run/postgresql/.s.PGSQL.5432'))).toBeNull();
		expect(goRun(false, open('/etc/passwd'))).toBe('/etc/passwd');
		expect(goRun(true, open('/etc/shadow'))).toBe('/etc/shadow');
	});
});

describe('AttemptWatch, in a batch (grader/trusted/run-batch.ts)', () => {
	const batchView: RunView = {
		...view,
		given: view.given.filter((path) => !path.startsWith('/wb/exercises/'))
	};
	const parts = ['01-first-handler', '02-same-event', '01-first-handler', '02-same-event', ''].map(
		(folder, n) => ({ folder, marker: `/wb/.part-secret-${n}` })
	);
	const marker = (n: number, pid = 12) =>
		`${pid} access(${hex(`/wb/.part-secret-${n}`)}, F_OK) = -1 ENOENT (No such file or directory)`;
	function batch(...lines: string[]) {
		const one = new AttemptWatch(batchView, parts);
		for (const line of [...start, ...lines]) one.line(line);
		return one;
	}

	it("gives each part its own exercise's folder alone, from its marker on, and counts each part's calls", () => {
		const one = batch(
			marker(0),
			open('/wb/exercises/01-first-handler/handler.js'),
			marker(1),
			open('/wb/exercises/02-same-event/handler.js'),
			marker(2),
			marker(3),
			marker(4)
		);
		expect(one.attempt).toBeNull();
		expect(one.callsByPart).toEqual([2, 2, 1, 1, 1]);
	});

	it("sees another exercise's folder read in a part as the attempt it is alone, in that part", () => {
		const before = batch(open('/wb/exercises/01-first-handler/handler.js'));
		expect([before.attempt, before.attemptPart]).toEqual(['/wb/exercises/01-first-handler/handler.js', 0]);
		const one = batch(marker(0), marker(1), open('/wb/exercises/01-first-handler/handler.js'));
		expect([one.attempt, one.attemptPart]).toEqual(['/wb/exercises/01-first-handler/handler.js', 1]);
		const late = batch(marker(0), marker(1), marker(2), marker(3), open('/proc/1/environ'));
		expect([late.attempt, late.attemptPart]).toEqual(['/proc/1/environ', 3]);
	});

	it("takes a marker out of its turn, or a thread's, as an attempt that no part of the batch is kept from", () => {
		const again = batch(marker(0), marker(1), marker(1));
		expect([again.attempt, again.attemptPart]).toEqual([
			"a part's marker out of its turn (/wb/.part-secret-1)",
			0
		]);
		const early = batch(marker(0), marker(2));
		expect(early.attemptPart).toBe(0);
		const thread = batch(marker(0), marker(1, 13));
		expect(thread.attemptPart).toBe(0);
		// A thread's attempt (an asynchronous call queued in an earlier part) is not placed in the part it lands in.
		const queued = batch(marker(0), marker(1), marker(2), open('/proc/1/environ', 13));
		expect([queued.attempt, queued.attemptPart]).toEqual(['/proc/1/environ', 0]);
	});
});
