// The attempt watch on hand-written strace lines: bwrap's setup is ignored, the sandbox's own paths and node's
// own reads pass, and every way out (a path, a process, a program, an address) is named once.
import { describe, expect, it } from 'vitest';
import { AttemptWatch, parseLine, type RunView } from './attempts.ts';

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
				`12 kill(2 /* 12 in strace's PID NS */, SIGTERM) = 0`,
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
			`12 kill(1 /* 11 in strace's PID NS */, SIGKILL) = 0`
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
		expect(watch(`12 kill(1 /* 11 in strace's PID NS */, SIGKILL) = 0`)).toBe('another process (kill 1)');
		expect(watch('12 kill(-1, SIGKILL) = -1 ESRCH')).toBe('another process (kill -1)');
		expect(watch('12 ptrace(PTRACE_ATTACH, 1) = -1 EPERM')).toBe('another process (ptrace)');
		expect(
			watch(
				`12 connect(5, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(${hex('10.0.0.1')})}, 16)`
			)
		).toBe('the network (10.0.0.1)');
		expect(watch(`12 connect(5, {sa_family=AF_UNIX, sun_path=${hex('/run/docker.sock')}}, 110) = -1`)).toBe(
			'a socket (/run/docker.sock)'
		);
		expect(watch('12 io_uring_setup(8, 0x1) = 5')).toBe('io_uring (file access the trace does not see)');
	});

	it('reaches PostgreSQL only where the run has a database', () => {
		const socket = `12 connect(5, {sa_family=AF_UNIX, sun_path=${hex('/run/postgresql/.s.PGSQL.5432')}}, 110) = 0`;
		expect(watch(socket)).toBe('a socket (/run/postgresql/.s.PGSQL.5432)');
		const withDatabase = new AttemptWatch({ ...view, given: [...view.given, '/run/postgresql'] });
		for (const line of [...start, socket]) withDatabase.line(line);
		expect(withDatabase.attempt).toBeNull();
	});
});
