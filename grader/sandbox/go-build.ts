// A Go submission's exercise, built outside the sandbox into one program the sandbox runs: the learner's
// files, the workbook's Go harness and the exercise's Go observer (go/grader/observe/<folder>/).
//
//   const built = await buildGo(exercise, files, { timeoutMs: 60_000, memoryMb: 2048 });
//   built.binary       // the program to run in the sandbox (sandbox.ts, run.program), or
//   built.error        // "does not build: …" (its checks are not executed), or
//   built.forfeit      // "imports unsafe, which learner code may not" (0 for the exercise)
//   removeGoBuild(built);
//
// What the build takes from the submission is the manifest's goLearnerFiles for that exercise and nothing
// else: never its go.mod, go.sum, other files or replace directives; the module is the grader's own (go/'s
// go.mod and go.sum), copied into a fresh folder with the harness's non-test sources and the observer.
// Before it builds, each learner file is read for what would reach past Go's types (`goRefusal`): `import "C"`
// (cgo), the packages that hand out raw memory (`pastTypes`), any `//go:` directive but `//go:build` (linkname,
// embed, …), and any package of the workbook that is no part of the harness (its solutions, the grader). Then
// the same import rules, and the manifest's given answers, are judged again on the toolchain's own reading of
// the package (`go list`, `toolchainRefusal`): an import spelled in any way Go accepts is the import it is. The build itself runs no code of the learner's
// (cgo off, no generate) with no network and no download (GOPROXY=off, GOFLAGS=-mod=readonly against the
// grader's go.sum, GOTOOLCHAIN=local), the grader's own module cache (nothing is written to it: nothing is
// fetched), a build cache of the grader's, `-trimpath`, and a time and a memory bound (its cgroup, or ulimit
// -v): a build that runs past either costs that exercise alone.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { notYetGiven } from '#harness/core/given.ts';
import type { Exercise } from '#harness/core/manifest.ts';
import { cgroupsWork, killCgroups, killedForMemory, makeCgroups, removeCgroups } from './cgroups.ts';
import { root } from './paths.ts';
import { privateStampedFolder } from './leftovers.ts';

export type GoBuild =
	{ dir: string; binary: string } | { dir: null; error: string } | { dir: null; forfeit: string };
export type GoBuildLimits = { timeoutMs: number; memoryMb: number };
export const goBuildLimits: GoBuildLimits = { timeoutMs: 90_000, memoryMb: 2048 };

const goDir = join(root, 'go');
// The harness's packages a learner's file may import; everything else of the module is not in the build.
const notHarness = new Set(['solutions', 'exercises', 'cmd', 'testdata', 'grader']);
const harnessPackages = () =>
	readdirSync(goDir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && !notHarness.has(entry.name))
		.map((entry) => entry.name);
// Copied into every build for the observer, and never importable by a learner's file: go/channel is the pen
// that seals the observer's lines, and a learner's Send would be sealed too.
const observerOnly = new Set(['channel']);

// The import paths of a Go file: single imports and import blocks, as the language writes them.
export function goImports(text: string): string[] {
	const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ');
	const found: string[] = [];
	for (const m of code.matchAll(/^\s*import\s+(?:[\w.]+\s+)?(?:"([^"]*)"|`([^`]*)`)/gm))
		found.push(m[1] ?? m[2]!);
	for (const block of code.matchAll(/^\s*import\s*\(([\s\S]*?)\)/gm))
		for (const m of block[1]!.matchAll(/^\s*(?:[\w.]+\s+)?(?:"([^"]*)"|`([^`]*)`)/gm))
			found.push(m[1] ?? m[2]!);
	return found;
}

// The standard packages that reach past Go's types, to the observer's key and the held-out inputs in the
// process's memory: cgo, unsafe, and those that hand out what unsafe does without importing it (reflect's
// Value.UnsafePointer and NewAt, a pointer to any address; syscall's raw calls on any address; runtime/debug's
// WriteHeapDump, every byte of the heap; plugin and runtime/cgo, code from elsewhere).
const pastTypes: Record<string, string> = {
	C: '"C" (cgo)',
	unsafe: 'unsafe',
	reflect: 'reflect',
	syscall: 'syscall',
	'runtime/debug': 'runtime/debug',
	'runtime/cgo': 'runtime/cgo',
	plugin: 'plugin'
};

// Why a learner's file may not import path, or null.
function importRefusal(file: string, path: string): string | null {
	const named = pastTypes[path];
	if (named) return `${file} imports ${named}, which learner code may not use`;
	const [top, first] = path.split('/');
	const harness = first !== undefined && harnessPackages().includes(first) && !observerOnly.has(first);
	if (top === 'workbook' && !harness)
		return `${file} imports ${path}: only the harness's packages may be imported, never the reference or the grader`;
	return null;
}

// Why a learner's Go file may not be built, or null, read from its text: a quick first look that names the
// rule (toolchainRefusal, on the package as Go reads it, is the one that decides). Each reaches past what Go's
// types let code do, where the observer's key and the held-out inputs live, or into the workbook's reference.
export function goRefusal(file: string, text: string): string | null {
	// Wherever a line comment starts: the compiler reads a directive after code on its line too.
	const directive = /\/\/go:(?!build\b)(\w+)/.exec(text);
	if (directive) return `${file} has a //go:${directive[1]} directive, which learner code may not use`;
	for (const path of goImports(text)) {
		const refused = importRefusal(file, path);
		if (refused) return refused;
	}
	return null;
}

type Listed = { ImportPath: string; Imports?: string[] };

// The same rules on a learner file as the toolchain reads it (`go list` of that file alone, with its
// dependencies): every import, however spelled (a raw string, an alias in any script, after a `)` in a
// comment, behind a build constraint), and, followed through the workbook's packages, any package that holds
// an answer to this exercise or a later one (the manifest's given list, as go/given rules it for go test).
export function toolchainRefusal(exercise: Exercise, name: string, listed: Listed[]): string | null {
	const byPath = new Map(listed.map((entry) => [entry.ImportPath, entry]));
	const file = `go/exercises/${exercise.folder}/${name}`;
	const barred = new Map(
		notYetGiven(exercise)
			.filter((answer) => answer.go)
			.map((answer) => [`workbook/${dirname(answer.go!).replace(/^go\//, '')}`, answer])
	);
	const imports = byPath.get('command-line-arguments')?.Imports ?? [];
	for (const path of imports) {
		const refused = importRefusal(file, path);
		if (refused) return refused;
	}
	// Breadth first through the workbook's packages, as go/given's reach walks them.
	const cameFrom = new Map<string, string | null>(imports.map((path) => [path, null]));
	const queue = [...cameFrom.keys()];
	while (queue.length) {
		const at = queue.shift()!;
		const answer = barred.get(at);
		if (answer) {
			const chain: string[] = [];
			for (let step = cameFrom.get(at); step; step = cameFrom.get(step)) chain.unshift(step);
			const via = chain.length ? `, through ${chain.join(' → ')}` : '';
			return `${file} imports exercise ${answer.answers}'s answer, handed on from ${answer.from}: write your own (${answer.go}${via})`;
		}
		for (const next of byPath.get(at)?.Imports ?? [])
			if (next.startsWith('workbook/') && !cameFrom.has(next)) {
				cameFrom.set(next, at);
				queue.push(next);
			}
	}
	return null;
}

// The folder a build happens in: the grader's module, the harness, the exercise's other given files, the learner's.
function buildFolder(exercise: Exercise, files: Map<string, string>): string {
	// Stamped: a grader killed outright mid-build leaves it to the next grading's sweep (leftovers.ts).
	const dir = privateStampedFolder(tmpdir(), 'grade-go-');
	const module = join(dir, 'go');
	mkdirSync(module);
	for (const name of ['go.mod', 'go.sum']) cpSync(join(goDir, name), join(module, name));
	const sources = (from: string) => (path: string) =>
		!path.endsWith('_test.go') && (path === from || !relative(from, path).includes('testdata'));
	for (const name of harnessPackages())
		cpSync(join(goDir, name), join(module, name), { recursive: true, filter: sources(join(goDir, name)) });
	const observe = join(goDir, 'grader', 'observe');
	for (const name of readdirSync(observe).filter((name) => name.endsWith('.go')))
		cpSync(join(observe, name), join(module, 'grader', 'observe', name), { recursive: true });
	cpSync(join(observe, exercise.folder), join(module, 'grader', 'observe', exercise.folder), {
		recursive: true
	});
	const folder = join(module, 'exercises', exercise.folder);
	mkdirSync(folder, { recursive: true });
	// The exercise's given Go files (03's separate.go, 05's send_inside.go), then the learner's.
	const given = join(goDir, 'exercises', exercise.folder);
	for (const name of readdirSync(given))
		if (name.endsWith('.go') && !name.endsWith('_test.go') && !exercise.goLearnerFiles?.includes(name))
			cpSync(join(given, name), join(folder, name));
	for (const [path, text] of files) writeFileSync(join(module, 'exercises', path), text);
	return dir;
}

// WORKBOOK_GRADER_GO_CACHE names another (a test starts from an empty one).
const buildCache = process.env.WORKBOOK_GRADER_GO_CACHE || join(tmpdir(), 'workbook-grader-go-build-cache');
let moduleCache: Promise<string> | null = null;
// The grader's own module cache, where its go.sum's modules already are.
function goModuleCache(): Promise<string> {
	moduleCache ??= new Promise((resolve) => {
		const child = spawn('go', ['env', 'GOMODCACHE'], { stdio: ['ignore', 'pipe', 'ignore'] });
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk));
		child.on('error', () => resolve(''));
		child.on('close', () => resolve(out.trim()));
	});
	return moduleCache;
}

// The build's environment: nothing of the grader's own but PATH.
const buildEnv = (dir: string, modules: string) => ({
	PATH: process.env.PATH ?? '/usr/local/go/bin:/usr/bin:/bin',
	HOME: dir,
	// go build's own work folder ($WORK) too, so a build stopped at its limit leaves nothing behind.
	TMPDIR: join(dir, 'tmp'),
	GOPATH: join(dir, 'gopath'),
	GOMODCACHE: modules,
	GOCACHE: buildCache,
	GOPROXY: 'off',
	GOSUMDB: 'off',
	GOFLAGS: '-mod=readonly -buildvcs=false',
	GOTOOLCHAIN: 'local',
	GOWORK: 'off',
	GOENV: 'off',
	CGO_ENABLED: '0',
	GO111MODULE: 'on'
});

// Builds one exercise of a Go submission. files: the learner's Go files, by path under go/exercises/.
export async function buildGo(
	exercise: Exercise,
	files: Map<string, string>,
	limits: GoBuildLimits = goBuildLimits
): Promise<GoBuild> {
	for (const [path, text] of files) {
		const refused = goRefusal(`go/exercises/${path}`, text);
		if (refused) return { dir: null, forfeit: refused };
	}
	if (!existsSync(join(goDir, 'go.mod')))
		return {
			dir: null,
			error: 'this grader has no go/ module (a Gradescope package carries none): Go is not graded here'
		};
	if (!existsSync(join(goDir, 'grader', 'observe', exercise.folder)))
		return {
			dir: null,
			error: `exercise ${exercise.id} has no Go observer yet (go/grader/observe/${exercise.folder})`
		};
	// A cold cache (the standard library again under -trimpath, the harness) is the grader's to pay, not the
	// first learner's: the reference is built once first, untimed by any learner's limit.
	await warmedFor(exercise);
	return build(exercise, files, limits);
}

const warmed = new Map<string, Promise<void>>();
// The exercise's observer built once with the reference's files, filling the build cache; a failure is no one's.
function warmedFor(exercise: Exercise): Promise<void> {
	let warm = warmed.get(exercise.folder);
	if (!warm) {
		const reference = async () =>
			new Map(
				(exercise.goLearnerFiles ?? []).map((name) => [
					`${exercise.folder}/${name}`,
					readFileSync(join(goDir, 'solutions', exercise.folder, name), 'utf8')
				])
			);
		warm = reference()
			.then((files) => build(exercise, files, { ...goBuildLimits, timeoutMs: 600_000 }))
			.then(removeGoBuild, () => undefined);
		warmed.set(exercise.folder, warm);
	}
	return warm;
}

async function build(
	exercise: Exercise,
	files: Map<string, string>,
	limits: GoBuildLimits
): Promise<GoBuild> {
	const dir = buildFolder(exercise, files);
	mkdirSync(join(dir, 'tmp'));
	const binary = join(dir, 'observe');
	const cgroups = cgroupsWork() ? makeCgroups(limits.memoryMb) : [];
	// The compiler's threads count as processes: the build may have more than a run.
	if (cgroups[1]) writeFileSync(join(cgroups[1], 'pids.max'), '1024');
	const env = buildEnv(dir, await goModuleCache());
	const deadline = Date.now() + limits.timeoutMs;
	const go = (args: string[], whole = false) =>
		goTool(args, dir, env, { ...limits, timeoutMs: Math.max(0, deadline - Date.now()) }, cgroups, whole);
	// Each learner file as the toolchain reads it, judged before a line of it is compiled.
	let refused: string | null = null;
	let listed: GoRun | null = null;
	for (const name of exercise.goLearnerFiles ?? []) {
		const path = `./exercises/${exercise.folder}/${name}`;
		listed = await go(['list', '-e', '-deps', '-json=ImportPath,Imports', path], true);
		const read = listed.code === 0 ? parseListed(listed.output) : null;
		// A list the rules cannot read is a list that failed: the rules are never skipped.
		if (listed.code === 0 && read === null)
			listed = { ...listed, code: 1, output: `go list of ${name} said what the grader could not read` };
		refused = read ? toolchainRefusal(exercise, name, read) : null;
		if (refused || listed.code !== 0) break;
	}
	// A list that failed is a build that failed: nothing is built that the rules have not read.
	const result =
		listed && (refused || listed.code !== 0)
			? listed
			: await go(['build', '-trimpath', '-o', binary, `./grader/observe/${exercise.folder}`]);
	const outOfMemory = killedForMemory(cgroups);
	killCgroups(cgroups);
	removeCgroups(cgroups);
	if (!refused && result.code === 0 && existsSync(binary)) return { dir, binary };
	rmSync(dir, { recursive: true, force: true });
	if (refused) return { dir: null, forfeit: refused };
	if (result.timedOut)
		return {
			dir: null,
			error: `does not build: the Go build passed ${limits.timeoutMs / 1000} s and was stopped`
		};
	if (outOfMemory)
		return { dir: null, error: `does not build: the Go build passed ${limits.memoryMb} MB and was stopped` };
	const said = result.output
		.split('\n')
		.filter((line) => line.trim() && !line.startsWith('#'))
		.slice(0, 8)
		.join('\n')
		.replaceAll(dir, '');
	return { dir: null, error: `does not build (go build):\n${said || `go exited with code ${result.code}`}` };
}

type GoRun = { code: number | null; output: string; timedOut: boolean };

// One go command in the build folder, in the build's cgroups (or under ulimit -v), stopped at the time limit
// (what is left of it: the lists and the build share one). Its output is kept to 64 KB for a message, or whole to be read.
function goTool(
	args: string[],
	dir: string,
	env: Record<string, string>,
	limits: GoBuildLimits,
	cgroups: string[],
	whole: boolean
): Promise<GoRun> {
	const joins = cgroups.map((cgroup) => `echo $$ > ${cgroup}/cgroup.procs && `).join('');
	const limit = cgroups.length ? '' : `ulimit -v ${(limits.memoryMb + 8192) * 1024} && `;
	return new Promise((resolve) => {
		const child = spawn('sh', ['-c', `${joins}${limit}exec go "$@"`, 'go', ...args], {
			cwd: join(dir, 'go'),
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true
		});
		let output = '';
		const keep = (chunk: Buffer) => {
			if (whole || output.length < 64 * 1024) output += chunk.toString();
		};
		child.stdout.on('data', keep);
		if (!whole) child.stderr.on('data', keep);
		else child.stderr.resume();
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// Already gone.
			}
			killCgroups(cgroups);
		}, limits.timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			resolve({ code: null, output: String(error), timedOut });
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, output, timedOut });
		});
	});
}

// go list -json prints one object after another, not an array; null when that is not what it printed, or when
// the learner's file (command-line-arguments) is not among them.
export function parseListed(output: string): Listed[] | null {
	try {
		const listed = JSON.parse(`[${output.replace(/\n\}\n\{/g, '\n},\n{')}]`) as Listed[];
		return listed.some((entry) => entry.ImportPath === 'command-line-arguments') ? listed : null;
	} catch {
		return null;
	}
}

export function removeGoBuild(built: GoBuild): void {
	if (built.dir) rmSync(built.dir, { recursive: true, force: true });
}
