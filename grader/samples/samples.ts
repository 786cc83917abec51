// The sample submissions the grader's tests pin: honest ones, and hostile ones, each of a kind of attack.
// Each is built from the workbook as it stands (a base: the solutions, the shipped stubs, or nothing) with the
// files under grader/samples/submissions/<name>/ on top, where {{ROOT}} is the grader's checkout, {{CLASS}} the class
// folder, and a line "// {{SOLUTION}}" the reference's own file (so an attack can ride on right answers; in a Go file,
// spliced with its imports merged: go-samples-splice.ts).
// `setup` adds what a folder of files can't hold (links, FIFOs); `at` and `path` give odd folder names.
// Every sample is pinned: its score on each exercise, and one line of what the report says about it.
import { spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { exercises } from '#harness/core/manifest.ts';
import { root } from '../sandbox/paths.ts';
import { safeName } from '../trusted/names.ts';
import { goSamples } from './go-samples.ts';
import { solutionMarker, spliceGo } from './go-samples-splice.ts';
import { isMain } from '../../lib/main-module.ts';

export type Kind =
	| 'honest'
	| 'reference'
	| 'verdicts'
	| 'channel'
	| 'leak'
	| 'class'
	| 'database'
	| 'unpacking'
	| 'names'
	| 'batch';
export type Score = 'full' | 'zero' | 'some';
export type Sample = {
	name: string;
	story: string;
	kind: Kind;
	base: 'solutions' | 'stubs' | 'nothing';
	// With base "stubs": the exercises (by id) whose solution the sample has.
	solved?: string[];
	// Where it lives under the class folder (default: its name), and what is handed to the grader.
	at?: string;
	path?: (folder: string) => string;
	setup?: (folder: string) => void;
	// The learner's name in the report (default: `at`).
	learner?: string;
	// A Go learner's files (go-samples.ts): the exercises (by id) whose Go solution it has in go/exercises/,
	// the shipped Go stubs for the rest.
	go?: { solved: string[] };
	// Per exercise id; the others get `rest`. A sample the grader refuses to grade has none.
	scores?: Record<string, Score>;
	rest?: Score;
	// A line of the report about this sample (its row and notes; or the class report's "not graded" line).
	says: RegExp;
};

// Folder names a class export may hold; the grader gives each a safe name of its own (names.ts).
const forgedHeading = 'forged\ncomplete:\n  01: 0 for this exercise';
const quotedName = `Ann "Lee" o'Neil`;
// Two folder names that change alike and whose hashes meet in their first eight hex digits (names.ts).
const [metA, metB] = ['Ann   [><', 'Ann !&<,$'];
const wideName = `${'中'.repeat(84)} `;
const oddFileName = 'notes\r  02: 0 for this exercise\u202e.md';
const zeroAt01 = { scores: { '01': 'zero' as const }, rest: 'full' as const };
const didNotLoad = (why: string) =>
	new RegExp(`01: not executed: exercises/01-first-handler/handler\\.ts did not load: ${why}`);
const fifo = (file: string) => spawnSync('mkfifo', [file]);
// The one line a run gets when its code tried to reach outside its sandbox (sandbox.ts traces it; attempts.ts).
const reached = (what: string) =>
	new RegExp(`01: 0 for this exercise: its code tried to reach ${what}, outside its sandbox$`, 'm');

// A batch's samples (grader/trusted/run-batch.ts): every exercise without a database gets a line of the sample's
// own at its end, so none of them is shared with a classmate's run and all of them play in the sample's batch.
const ownCopies = (name: string) => (folder: string) => {
	for (const exercise of exercises().filter((one) => one.postgres !== 'only'))
		for (const file of exercise.learnerFiles) {
			const path = join(folder, 'exercises', exercise.folder, file);
			writeFileSync(path, `${readFileSync(path, 'utf8')}\n// ${name}: a copy of its own\n`);
		}
};
const costs04 = (name: string, story: string, says: RegExp): Sample => ({
	name,
	story,
	kind: 'batch',
	base: 'solutions',
	setup: ownCopies(name),
	scores: { '04': 'zero' },
	rest: 'full',
	says
});
const lateIn01 = (name: string, story: string): Sample => ({
	name,
	story,
	kind: 'batch',
	base: 'solutions',
	setup: ownCopies(name),
	rest: 'full',
	says: new RegExp(`^${name}( +✔ [\\d.]+/[\\d.]+)+ +([\\d.]+)/\\2$`, 'm')
});

// A native library whose constructor forks, compiled with the system's C compiler, its bytes put in `file`.
function nativeFork(file: string): void {
	const dir = mkdtempSync(join(tmpdir(), 'grader-native-'));
	try {
		const source = join(dir, 'fork.c');
		writeFileSync(
			source,
			'#include <unistd.h>\n__attribute__((constructor)) static void f(void) { if (fork() == 0) _exit(0); }\n'
		);
		const built = spawnSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'fork.so'), source], {
			encoding: 'utf8'
		});
		if (built.status !== 0)
			throw new Error(`native-fork needs a C compiler (cc): ${built.stderr || built.error}`);
		const bytes = readFileSync(join(dir, 'fork.so')).toString('base64');
		writeFileSync(file, readFileSync(file, 'utf8').replace('{{NATIVE_FORK}}', bytes));
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// An honest classmate graded right after a database attack: the reference's 06, in a file of its own (so its
// run is its own, not shared with another submission's).
const afterDatabaseAttack = (attack: string): Sample => ({
	name: `after-db-${attack}`,
	story: `honest, graded right after db-${attack}`,
	kind: 'honest',
	base: 'solutions',
	rest: 'full',
	says: new RegExp(`^after-db-${attack}( +✔ [\\d.]+/[\\d.]+)+`, 'm')
});

export const samples: Sample[] = [
	// Honest work, and the usual ways it goes wrong.
	{
		name: 'complete',
		story: 'every exercise solved (the solutions)',
		kind: 'honest',
		base: 'solutions',
		rest: 'full',
		says: /^complete( +✔ [\d.]+\/[\d.]+)+ +([\d.]+)\/\2$/m
	},
	{
		name: 'untouched',
		story: 'the workbook as shipped',
		kind: 'honest',
		base: 'stubs',
		rest: 'zero',
		says: /01: TicketHandler\.handle is not written yet\./
	},
	{
		name: 'partial',
		story: 'exercise 01 solved, the rest as shipped',
		kind: 'honest',
		base: 'stubs',
		solved: ['01'],
		scores: { '01': 'full' },
		rest: 'zero',
		says: /02: sameEvent is not written yet\./
	},
	{
		name: 'infinite-loop',
		story: "solved, but exercise 02's handler never returns",
		kind: 'honest',
		base: 'solutions',
		// sameEvent and replay answered before the handler looped: those points are its own.
		scores: { '02': 'some' },
		rest: 'full',
		says: /02: not executed: timed out: the exercise was stopped after 5 s/
	},
	{
		name: 'exit-at-import',
		story: 'solved, but exercise 01 calls process.exit(0) when imported',
		kind: 'honest',
		base: 'solutions',
		...zeroAt01,
		says: /01: not executed: the process exited \(code 0\) while exercises\/01-first-handler\/handler\.ts was loading/
	},
	{
		name: 'edited-tests',
		story: "as shipped, with exercise 01's tests, package.json and config edited",
		kind: 'honest',
		base: 'stubs',
		rest: 'zero',
		says: /Ignored \(only the learner files are graded\): .*exercises\/01-first-handler\/handler\.test\.ts \(edited\)/
	},
	{
		name: 'hard-coded',
		story: "handlers that look up the shipped schedules' answers",
		kind: 'honest',
		base: 'stubs',
		scores: { '01': 'some', '02': 'some' },
		rest: 'zero',
		says: /01: A random case the tests do not ship \(held-out, case \d+ of \d+\):/
	},
	{
		name: 'own-descriptors',
		story: 'solved, and reads where its own standard output goes (/proc/self/fd/1)',
		kind: 'honest',
		base: 'solutions',
		rest: 'full',
		says: /^own-descriptors( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'empty',
		story: 'an empty folder',
		kind: 'honest',
		base: 'nothing',
		rest: 'zero',
		says: /Nothing graded: the folder is empty\./
	},
	{
		name: 'given-replay-in-03',
		story: 'exercise 03 solved with the replay the harness gives it, 02 as shipped',
		kind: 'honest',
		base: 'stubs',
		solved: ['03'],
		scores: { '03': 'full' },
		rest: 'zero',
		says: /02: sameEvent is not written yet\./
	},

	// 06's PostgreSQL: each run has a cluster of its own (sandbox/cluster.ts), so what a run exhausts or writes
	// there is its own; each attack is followed by an honest classmate, graded right after it.
	{
		name: 'db-connections',
		story: 'fills every connection slot of its PostgreSQL with connections that never log in',
		kind: 'database',
		base: 'solutions',
		scores: { '06': 'some' },
		rest: 'full',
		says: /06: .*too many clients/
	},
	afterDatabaseAttack('connections'),
	{
		name: 'db-advisory-locks',
		story: "fills its PostgreSQL's lock table with advisory locks, and keeps them",
		kind: 'database',
		base: 'solutions',
		scores: { '06': 'some' },
		rest: 'full',
		says: /06: .*out of shared memory/
	},
	afterDatabaseAttack('advisory-locks'),
	{
		name: 'db-gigabyte',
		story: 'writes a gigabyte into its database at import',
		kind: 'database',
		base: 'solutions',
		scores: { '06': 'zero' },
		rest: 'full',
		says: /06: not executed: its database passed 256 MB on disk, the quota of a run; the run was stopped/
	},
	afterDatabaseAttack('gigabyte'),
	{
		name: 'db-is-template',
		story: 'makes its database a template (once, so that it outlived the run) and leaves a session asleep',
		kind: 'database',
		base: 'solutions',
		rest: 'full',
		says: /^db-is-template( +✔ [\d.]+\/[\d.]+)+/m
	},
	afterDatabaseAttack('is-template'),
	{
		name: 'db-note-writer',
		story: 'leaves a note in the shared catalogs (COMMENT ON DATABASE and ROLE, a role setting) and a table',
		kind: 'database',
		base: 'solutions',
		rest: 'full',
		says: /^db-note-writer( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'db-note-reader',
		story: 'graded right after db-note-writer: fails to load if it finds the note anywhere',
		kind: 'database',
		base: 'solutions',
		rest: 'full',
		says: /^db-note-reader( +✔ [\d.]+\/[\d.]+)+/m
	},

	// Reaching the reference or a classmate: none of it is in the sandbox.
	{
		name: 'reference-absolute',
		story: "imports the reference's handler by the checkout's absolute path",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/solutions/01-first-handler/handler\\.js')
	},
	{
		name: 'reference-relative',
		story: "imports the reference's handler through many ../",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/solutions/01-first-handler/handler\\.js')
	},
	{
		name: 'reference-cwd',
		story: 'imports the reference from process.cwd()',
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/wb/solutions/01-first-handler/handler\\.ts')
	},
	{
		name: 'reference-copy',
		story: "copies the reference's file with fs, then imports the copy",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/solutions/01-first-handler/handler\\.ts')
	},
	{
		name: 'reference-search',
		story: 'searches every folder it can see for solutions/',
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/')
	},
	{
		name: 'classmate-proc',
		story: "finds a classmate's folder in the grader's argv in /proc",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/proc')
	},
	{
		name: 'classmate-direct',
		story: "reads a classmate's handler from the class folder",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/complete/exercises/01-first-handler/handler\\.ts')
	},

	// An answer handed on: the harness gives 02's replay from 03 on and 03's handleAtomically from 05 on
	// (exercises/manifest.json's given); imported where it is the exercise, it is not the learner's work.
	{
		name: 'given-answer-imported',
		story: "exercise 02's replay imported from the harness, which hands it to 03",
		kind: 'reference',
		base: 'solutions',
		scores: { '02': 'zero' },
		rest: 'full',
		says: /^ +02: 0 for this exercise: exercises\/02-same-event\/handler\.ts imports exercise 02's answer, handed on from 03: write your own \(harness\/core\/replay\.ts\)$/m
	},
	{
		name: 'given-answer-reexported',
		story: "exercise 03's atomic.ts re-exports the harness's handleAtomically, which it hands to 05",
		kind: 'reference',
		base: 'solutions',
		scores: { '03': 'zero' },
		rest: 'full',
		says: /^ +03: 0 for this exercise: exercises\/03-the-race\/atomic\.ts imports exercise 03's answer, handed on from 05: write your own \(harness\/race\/atomic\.ts\)$/m
	},

	// Trying quietly: the attempt fails, the code says nothing and answers right; the trace shows the attempt.
	{
		name: 'tries-reference-absolute',
		story: "tries the reference by the checkout's absolute path, quietly, then answers right",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/solutions/01-first-handler/handler\\.js')
	},
	{
		name: 'tries-reference-relative',
		story: 'tries the reference through many ../, quietly, then answers right',
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/solutions/01-first-handler/handler\\.js')
	},
	{
		name: 'tries-reference-cwd',
		story: 'tries the reference from process.cwd(), quietly, then answers right',
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/wb/solutions/01-first-handler/handler\\.ts')
	},
	{
		name: 'tries-proc-environ',
		story: 'reads /proc/1/environ, quietly, then answers right',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/proc/1/environ')
	},
	{
		name: 'tries-proc-self-root',
		story: 'reads /proc/1/environ through /proc/self/root, quietly, then answers right',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/proc/self/root/proc/1/environ')
	},
	{
		name: 'tries-udp',
		story: 'sends a UDP datagram to an outside address, quietly, then answers right',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('the network \\(203\\.0\\.113\\.7\\)')
	},
	// Through what the kernel resolves and a rule by the letters would not: links the run made itself, a folder's
	// descriptor, an abstract socket (a name with no file).
	{
		name: 'tries-link-climb',
		story: 'makes /tmp/up a link to /usr and reads /tmp/up/../proc/1/environ (the root’s /proc), quietly',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/tmp/up/\\.\\./proc/1/environ')
	},
	{
		name: 'tries-link-renamed',
		story:
			'a link to /usr in a folder of /tmp, the folder renamed, a hard link to the link, then up through it',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/tmp/m/\\.\\./proc/1/environ')
	},
	{
		name: 'tries-link-chdir',
		story: 'moves its working folder into a link it made to /usr, then reads ../proc/1/environ, quietly',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('\\.\\./proc/1/environ')
	},
	{
		name: 'tries-fd-folder',
		story: 'opens /tmp as a descriptor and reads /proc/self/fd/<n>/../proc/1/environ, quietly',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/proc/self/fd/\\d+/\\.\\./proc/1/environ')
	},
	{
		name: 'tries-abstract-socket',
		story: "connects to an abstract Unix socket named like PostgreSQL's, quietly",
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('a socket \\(@\\.s\\.PGSQL\\.5432\\)')
	},
	{
		name: 'tries-walk-root',
		story: 'lists /, quietly, then answers right',
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('/')
	},
	{
		name: 'tries-classmate',
		story: "reads a classmate's handler, quietly, then answers right",
		kind: 'reference',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/complete/exercises/01-first-handler/handler\\.ts')
	},

	// Faking verdicts: there are none in the sandbox to fake.
	{
		name: 'vitest-rpc',
		story: "reports passes through Vitest's worker RPC",
		kind: 'verdicts',
		base: 'solutions',
		...zeroAt01,
		says: didNotLoad('TypeError: Cannot read properties of undefined')
	},
	{
		name: 'after-each',
		story: 'marks failed tests passed in an afterEach hook',
		kind: 'verdicts',
		base: 'solutions',
		...zeroAt01,
		says: didNotLoad("SyntaxError: .*'afterEach")
	},
	{
		name: 'patched-globals',
		story: 'replaces JSON.stringify, Object.is and array helpers, then answers nonsense',
		kind: 'verdicts',
		base: 'solutions',
		...zeroAt01,
		says: didNotLoad("TypeError: Cannot assign to read only property 'stringify'")
	},
	{
		name: 'compiler-crash',
		story: "a file that crashes the compiler (240,000 '!'), which once gave every classmate after it 0",
		kind: 'class',
		base: 'solutions',
		setup: (folder) => {
			const file = join(folder, 'exercises', '01-first-handler', 'handler.ts');
			writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const boom = ${'!'.repeat(240_000)}1;\n`);
		},
		...zeroAt01,
		says: /01: not executed: exercises\/01-first-handler\/handler\.ts does not compile: the compiler \(esbuild\) crashed on it twice/
	},
	{
		name: 'compiler-slow',
		story:
			"a file that makes the compiler slow without crashing it ('a<' 16,000 times, 28 s of esbuild), ahead of the class in its one queue",
		kind: 'class',
		base: 'solutions',
		setup: (folder) => {
			const file = join(folder, 'exercises', '01-first-handler', 'handler.ts');
			writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const slow = ${'a<'.repeat(16_000)}b;\n`);
		},
		...zeroAt01,
		says: /01: not executed: exercises\/01-first-handler\/handler\.ts does not compile: the compiler \(esbuild\) took more than 10 s on it twice/
	},

	{
		name: 'forged-observations',
		story: "writes its own observations on the grader's channel",
		kind: 'verdicts',
		base: 'solutions',
		...zeroAt01,
		says: /01: 0 for this exercise: its code wrote on the grader's observation channel/
	},

	{
		name: 'forged-then-kill',
		story:
			'plays the observer itself, writes its observations and a last line on the channel, then kills itself',
		kind: 'channel',
		base: 'solutions',
		...zeroAt01,
		says: /01: 0 for this exercise: its code wrote on the grader's observation channel \(line 1 is not the observer's\)/
	},
	{
		name: 'channel-rerouted',
		story:
			"tries to reopen the grader's channel by /proc/self/fd/3, to put a file in fd 3's place and forward the observer's sealed lines but one",
		kind: 'channel',
		base: 'solutions',
		...zeroAt01,
		says: didNotLoad("Error: ENXIO: no such device or address, open '/proc/self/fd/3'")
	},
	{
		name: 'half-line-after',
		story: "right answers, and half a line on the channel after the observer's last one",
		kind: 'channel',
		base: 'solutions',
		...zeroAt01,
		says: /01: 0 for this exercise: its code wrote on the grader's observation channel \(line \d+ was left unfinished\)/
	},
	{
		name: 'replaced-structured-clone',
		story: 'snapshot() hands out the live arrays, and structuredClone is replaced by one that copies nothing',
		kind: 'verdicts',
		base: 'solutions',
		...zeroAt01,
		says: didNotLoad("TypeError: Cannot assign to read only property 'structuredClone'")
	},
	{
		name: 'thenable-replay',
		story: 'replay answers a thenable whose then hands over the right outcome (the workbook’s tests fail it)',
		kind: 'verdicts',
		base: 'solutions',
		scores: { '02': 'some' },
		rest: 'full',
		says: /02: your code returned an object with a then, not a value/
	},
	{
		name: 'async-replay',
		story: 'replay is async: a promise of the right outcome (the workbook’s tests fail it)',
		kind: 'verdicts',
		base: 'solutions',
		scores: { '02': 'some' },
		rest: 'full',
		says: /02: replay answered a Promise, not a value: is it async\?/
	},
	{
		name: 'to-json-same-event',
		story: 'sameEvent answers an always-truthy object whose toJSON says the right boolean',
		kind: 'verdicts',
		base: 'solutions',
		scores: { '02': 'some' },
		rest: 'full',
		says: /02: .*sameEvent answered an object, not a boolean/
	},

	// Leaking: the sandbox holds nothing secret, so there is nothing to leak.
	{
		name: 'leak-environ',
		story: 'puts /proc/*/environ and process.env in its error message',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/proc')
	},
	{
		name: 'leak-env',
		story: 'puts its own process.env in its error message',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: /01: your code threw Error: Schedule "one-delivery"/
	},
	{
		name: 'leak-held-out',
		story: "puts the held-out checks' source in its error message",
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/grader/checks/01-first-handler\\.held\\.ts')
	},

	{
		name: 'leak-held-out-answers',
		story:
			'writes every held-out input it was handed (from job.json) into its answers: JSON, base64, codes, keys',
		kind: 'leak',
		base: 'solutions',
		setup: (folder) => {
			const file = join(folder, 'exercises', '02-same-event', 'handler.ts');
			writeFileSync(file, readFileSync(file, 'utf8').replace('export function replay(', 'function right('));
		},
		scores: { '02': 'some' },
		rest: 'full',
		// Its first failure is a given replay case, played before any held-out input reached the run; the
		// held-out ones show their one input, not the answer's own values (the test below looks for the others).
		says: /02: replay\(\{"tenant":"acme","source":"helpdesk","eventId":"evt-42"/
	},
	{
		name: 'view-search',
		story:
			"looks for the grader's checkout and temporary folders in everything its sandbox can read (01 and 06)",
		kind: 'leak',
		base: 'solutions',
		rest: 'full',
		says: /^view-search( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'leak-encoded',
		story: "puts the grader's checkout path in its error message, in base64 and in hex",
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		// The message's first line; that no results.json holds the path, encoded or not, the class-wide test checks.
		says: /01: your code threw Error: Schedule "one-delivery"/
	},
	{
		name: 'leak-mountinfo',
		story: "puts /proc/self/mountinfo (each bind's source on the host) in its error message",
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/proc/self/mountinfo')
	},

	{
		name: 'leak-mountinfo-link',
		story:
			'reads /proc/self/mountinfo through a link it made to /usr and a `..`, and puts it backwards in its message',
		kind: 'leak',
		base: 'solutions',
		...zeroAt01,
		says: reached('/tmp/up/\\.\\./proc/self/mountinfo')
	},

	// Reaching the class: read-only binds, a private /tmp, its own PID namespace, a cgroup.
	{
		name: 'write-node-modules',
		story: 'overwrites fast-check and @vitest/runner in node_modules',
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: didNotLoad('Error: EROFS: read-only file system')
	},
	{
		name: 'write-reference',
		story: 'overwrites the reference solution and the harness',
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/solutions/01-first-handler/handler\\.ts')
	},
	{
		name: 'write-classmate',
		story: "overwrites a classmate's handler in the class folder",
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: reached('<grader>/complete/exercises/02-same-event/handler\\.ts')
	},
	{
		name: 'private-tmp',
		story: 'right answers, and a file left in /tmp',
		kind: 'class',
		base: 'solutions',
		rest: 'full',
		says: /^private-tmp( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'detached-child',
		story: "right answers, and a detached child that later rewrites a classmate's file",
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: /01: 0 for this exercise: its code called child_process\.spawn, which learner code may not/
	},
	{
		name: 'kill-grader',
		story: 'kills its parent and every process it can signal',
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: reached('another process \\(kill 1\\)')
	},
	{
		name: 'fork-bomb',
		story: 'right answers, and hundreds of processes started from a worker thread',
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		// Node's permission model refuses the worker thread itself (grader/sandbox/sandbox.ts).
		says: didNotLoad('Error: Access to this API has been restricted')
	},
	{
		name: 'native-fork',
		story: 'right answers, and a native library loaded with process.dlopen that forks from its constructor',
		kind: 'class',
		base: 'solutions',
		setup: (folder) => nativeFork(join(folder, 'exercises', '01-first-handler', 'handler.ts')),
		...zeroAt01,
		// process.dlopen refuses and tells the grader (grader/inside/main.ts), and the permission model refuses
		// native addons too; were one loaded, the tracer would see its fork at the call.
		says: /01: 0 for this exercise: its code called process\.dlopen, which learner code may not/
	},
	{
		name: 'buffers',
		story: '2.5 GB of Buffers at import',
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: /01: not executed: the run was killed: out of memory \(\d+ MB for the whole run, buffers included\)/
	},
	{
		name: 'flood-output',
		story: 'right answers, after 20 MB printed',
		kind: 'class',
		base: 'solutions',
		rest: 'full',
		says: /^flood-output( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'flood-channel',
		story: "64 MB on the grader's channel",
		kind: 'class',
		base: 'solutions',
		...zeroAt01,
		says: /01: not executed: its observations passed 8 MB; the run was stopped/
	},

	// Unpacking: nothing followed, nothing that blocks.
	{
		name: 'link-to-solutions',
		story: 'the submission folder is a link to solutions/',
		kind: 'unpacking',
		base: 'nothing',
		setup: (folder) => {
			rmSync(folder, { recursive: true, force: true });
			symlinkSync(join(root, 'solutions'), folder);
		},
		rest: 'zero',
		says: /Nothing graded: the submission is a symbolic link, not a folder\./
	},
	{
		name: 'link-exercises',
		story: 'exercises/ is a link to solutions/',
		kind: 'unpacking',
		base: 'nothing',
		setup: (folder) => symlinkSync(join(root, 'solutions'), join(folder, 'exercises')),
		rest: 'zero',
		says: /Nothing graded: a symbolic link at exercises: only real folders and regular files are taken\./
	},
	{
		name: 'link-in-the-middle',
		story: "exercises/01-first-handler is a link to the reference's folder",
		kind: 'unpacking',
		base: 'solutions',
		setup: (folder) => {
			const linked = join(folder, 'exercises', '01-first-handler');
			rmSync(linked, { recursive: true, force: true });
			symlinkSync(join(root, 'solutions', '01-first-handler'), linked);
		},
		...zeroAt01,
		says: /Not taken: exercises\/01-first-handler\/handler\.ts \(a symbolic link at exercises\/01-first-handler\)/
	},
	{
		name: 'fifo',
		story: 'a FIFO where the handler should be, and another as README.md',
		kind: 'unpacking',
		base: 'solutions',
		setup: (folder) => {
			rmSync(join(folder, 'exercises', '01-first-handler', 'handler.ts'));
			fifo(join(folder, 'exercises', '01-first-handler', 'handler.ts'));
			fifo(join(folder, 'README.md'));
		},
		...zeroAt01,
		says: /Not taken: exercises\/01-first-handler\/handler\.ts \(a FIFO: only regular files are taken\)/
	},
	{
		name: 'dev-zero',
		story: 'links to /dev/zero as the handler and as a README',
		kind: 'unpacking',
		base: 'solutions',
		setup: (folder) => {
			rmSync(join(folder, 'exercises', '01-first-handler', 'handler.ts'));
			symlinkSync('/dev/zero', join(folder, 'exercises', '01-first-handler', 'handler.ts'));
			symlinkSync('/dev/zero', join(folder, 'exercises', '01-first-handler', 'README.md'));
		},
		...zeroAt01,
		says: /Not taken: exercises\/01-first-handler\/handler\.ts \(a symbolic link at exercises\/01-first-handler\/handler\.ts\)/
	},

	// Names: unique, stable, and never the grader's own.
	{
		name: 'same-name-a',
		story: 'a learner "alice" in folder a/',
		kind: 'names',
		base: 'solutions',
		at: 'same-name/a/alice',
		learner: 'same-name~a~alice',
		rest: 'full',
		says: /^same-name~a~alice( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'same-name-b',
		story: 'another "alice", in folder b/, with nothing done',
		kind: 'names',
		base: 'stubs',
		at: 'same-name/b/alice',
		learner: 'same-name~b~alice',
		rest: 'zero',
		says: /^same-name~b~alice( +✘ 0\/[\d.]+)+/m
	},
	{
		name: 'named-class-csv',
		story: 'a folder named class.csv: graded under a name of its own',
		kind: 'names',
		base: 'solutions',
		at: 'class.csv',
		learner: safeName('class.csv', 'class.csv'),
		rest: 'full',
		says: /^class\.csv-[0-9a-f]{8}( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'forged-heading',
		story: "a folder whose name holds newlines and another learner's heading and forfeit line",
		kind: 'names',
		base: 'stubs',
		at: forgedHeading,
		learner: safeName(forgedHeading, forgedHeading),
		rest: 'zero',
		says: /^forged_complete____01__0_for_this_exercise-[0-9a-f]{8}( +✘ 0\/[\d.]+)+/m
	},
	{
		name: 'formula-name',
		story: 'a folder named =2+5, a formula for a spreadsheet',
		kind: 'names',
		base: 'solutions',
		at: '=2+5',
		rest: 'full',
		says: /^=2\+5( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'quoted-name',
		story: 'a folder named with spaces and quotes, as class exports name them',
		kind: 'names',
		base: 'solutions',
		at: quotedName,
		learner: safeName(quotedName, quotedName),
		rest: 'full',
		says: /^Ann__Lee__o_Neil-[0-9a-f]{8}( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'hash-meets-a',
		story: 'a folder whose safe name and eight hex digits meet another’s (found by trying names): solved',
		kind: 'names',
		base: 'solutions',
		at: metA,
		learner: safeName(metA, metA, true, 16),
		rest: 'full',
		says: /^Ann______-919bb4e9[0-9a-f]{8}( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'hash-meets-b',
		story: 'the other folder of the pair: as shipped, so one written over the other shows',
		kind: 'names',
		base: 'stubs',
		at: metB,
		learner: safeName(metB, metB, true, 16),
		rest: 'zero',
		says: /^Ann______-919bb4e9[0-9a-f]{8}( +✘ 0\/[\d.]+)+/m
	},
	{
		name: 'wide-name',
		story: 'a folder named with 84 CJK letters and a space: 253 bytes, whose safe name must still fit in 255',
		kind: 'names',
		base: 'solutions',
		at: wideName,
		learner: safeName(wideName, wideName),
		rest: 'full',
		says: /^中{60}[^ ]*-[0-9a-f]{8}( +✔ [\d.]+\/[\d.]+)+/m
	},
	{
		name: 'odd-messages',
		story:
			'a message with a carriage return, an erase-line, U+2028, U+0085, a bidi override and a zero-width space around a forged row, and a file named so too',
		kind: 'names',
		base: 'solutions',
		setup: (folder) => writeFileSync(join(folder, 'exercises', '01-first-handler', oddFileName), 'notes\n'),
		...zeroAt01,
		says: /Ignored \(only the learner files are graded\): exercises\/01-first-handler\/notes\?  02: 0 for this exercise\\u\{202e\}\.md \(not in the workbook\)/
	},
	{
		name: 'dot-dot',
		story: 'a path that ends in ..',
		kind: 'names',
		base: 'solutions',
		at: 'dot-dot/inside',
		path: (folder) => `${folder}/../..`,
		says: /^not graded: .*\/\.\.: its path ends in \. or \.\.$/m
	},
	// A batch: one exercise broken among six in one run costs that exercise alone (run-batch.ts).
	costs04(
		'batch-loop',
		'every exercise solved but 04, which loops forever as it loads',
		/04: not executed: timed out: the exercise was stopped after 5 s/
	),
	costs04(
		'batch-exit',
		'every exercise solved but 04, which calls process.exit(0) as it loads',
		/04: not executed: the process exited \(code 0\) while exercises\/04-send-button-key\/submission\.ts was loading/
	),
	costs04(
		'batch-throws',
		'every exercise solved but 04, which throws as it loads',
		/04: not executed: exercises\/04-send-button-key\/submission\.ts did not load: Error: 04 will not load/
	),
	costs04(
		'batch-memory',
		'every exercise solved but 04, which fills memory as it loads',
		/04: not executed: the run was killed: out of memory/
	),
	costs04(
		'batch-channel',
		"every exercise solved, 04 with a begin line and answers of its own on the observer's channel",
		/04: 0 for this exercise: its code wrote on the grader's observation channel \(line 1 is not the observer's\)/
	),
	lateIn01(
		'batch-late-attempt',
		"01's timer reads /proc/1/environ once 07 has loaded, long after 01 is done"
	),
	lateIn01('batch-late-exit', "01's timer calls process.exit(3) once 07 has loaded"),
	lateIn01('batch-late-loop', "01's timer loops forever once 07 has loaded")
];

export const samplesDir = join(root, 'grader', 'samples', 'submissions');

function overlay(from: string, to: string, sample: string, classFolder: string): void {
	for (const entry of readdirSync(from, { withFileTypes: true })) {
		const source = join(from, entry.name);
		const target = join(to, entry.name);
		if (entry.isDirectory()) {
			mkdirSync(target, { recursive: true });
			overlay(source, target, sample, classFolder);
			continue;
		}
		const inGo = relative(join(sample, 'go', 'exercises'), target);
		const solution = inGo.startsWith('..')
			? join(root, 'solutions', relative(join(sample, 'exercises'), target))
			: join(root, 'go', 'solutions', inGo);
		const text = readFileSync(source, 'utf8')
			.replaceAll('{{ROOT}}', root.replace(/\/$/, ''))
			.replaceAll('{{CLASS}}', classFolder);
		// A Go file can't hold a second package clause and import list: go-samples-splice.ts merges them.
		const spliced = !text.includes(solutionMarker)
			? text
			: target.endsWith('.go')
				? spliceGo(text, readFileSync(solution, 'utf8'), relative(samplesDir, source))
				: text.replace(solutionMarker, () => readFileSync(solution, 'utf8'));
		writeFileSync(target, spliced);
	}
}

// Writes each sample as a learner's copy of the workbook under `dir`; returns what to hand the grader, in order.
export function materializeSamples(dir: string, list: Sample[] = samples): string[] {
	return list.map((sample) => {
		const folder = join(dir, sample.at ?? sample.name);
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		if (sample.base !== 'nothing') {
			for (const exercise of exercises()) {
				const solved = sample.base === 'solutions' || sample.solved?.includes(exercise.id);
				for (const file of exercise.learnerFiles) {
					const from = join(root, solved ? 'solutions' : 'exercises', exercise.folder, file);
					const to = join(folder, 'exercises', exercise.folder, file);
					mkdirSync(dirname(to), { recursive: true });
					writeFileSync(to, readFileSync(from));
				}
			}
		}
		for (const exercise of sample.go ? exercises() : [])
			for (const file of exercise.goLearnerFiles ?? []) {
				const solved = sample.go!.solved.includes(exercise.id);
				const from = join(root, 'go', solved ? 'solutions' : 'exercises', exercise.folder, file);
				const to = join(folder, 'go', 'exercises', exercise.folder, file);
				mkdirSync(dirname(to), { recursive: true });
				writeFileSync(to, readFileSync(from));
			}
		const own = join(samplesDir, sample.name);
		if (existsSync(own) && statSync(own).isDirectory()) overlay(own, folder, folder, dir);
		sample.setup?.(folder);
		return sample.path ? sample.path(folder) : folder;
	});
}

// npm run grade:samples -- [grade options]: builds the samples under grades/samples/ and grades them.
if (isMain(import.meta.url)) {
	const dir = join(root, 'grades', 'samples');
	const paths = materializeSamples(dir, [...samples, ...goSamples]);
	const cli = join(root, 'grader', 'trusted', 'cli.ts');
	const ran = spawnSync(
		join(root, 'node_modules', '.bin', 'tsx'),
		[cli, '--names-from', dir, ...process.argv.slice(2), ...paths],
		{
			stdio: 'inherit'
		}
	);
	process.exitCode = ran.status ?? 1;
}
