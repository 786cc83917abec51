// TypeScript to JavaScript for the sandbox, done outside it, so a run starts plain node and nothing else.
//
//   const harness = await compiledHarness({ sandboxed: true });   // once per grading: harness, inside, channel
//   const js = await compileFile(source, 'exercises/01-first-handler/handler.ts');   // { js } or { error }
//
// esbuild only parses and prints here; it never runs the code, and it reads no file but the source it is
// handed: every import is kept as it is (external), with ".ts" turned into ".js", so a learner file that
// imports "/somewhere/solutions/…" is compiled to the same import, which the sandbox then cannot resolve.
// The harness's `describe`/`it` (used only to declare tests) come from a stub: Vitest is not loaded to grade.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { build, stop, transform, type Plugin } from 'esbuild';
import { exercises } from '#harness/core/manifest.ts';
import { root } from './paths.ts';
import { privateStampedFolder } from './leftovers.ts';

const keepImports: Plugin = {
	name: 'keep-imports',
	setup(builder) {
		builder.onResolve({ filter: /.*/ }, (args) => {
			if (args.kind === 'entry-point') return null;
			const path = args.path === 'vitest' ? '#grader-vitest' : args.path.replace(/\.ts$/, '.js');
			return { path, external: true };
		});
	}
};

// The largest file compiled: what unpack.ts takes (256 KB), and nothing a learner's copy could need more of.
export const maxSourceBytes = 256 * 1024;

// esbuild compiles in one service process for the whole grading, and some inputs crash that process (a quarter
// of a million `!` in a row overflows its stack): every file compiling at that moment would fail with it, and
// every file after it, had the service stayed down. So files are compiled one at a time (each takes a
// millisecond or two), a service that died is started again for the next file, and the file it died on is tried
// once more on a fresh service before it is called the cause. A classmate's file is never judged by another's.
// And some inputs make it slow without crashing it: `a<a<a<…` takes it time that grows with the square of its
// length (16,000 of them, 32 KB, took 28 s; 256 KB would hold the queue, and every classmate behind it, for half an
// hour). So a compile has a time limit: past it the service is stopped, and the file tried once more on a fresh
// one before it is called the cause, as for a crash. An honest file compiles in milliseconds, on a busy machine too.
export const compileLimitMs = 10_000;
let queue: Promise<unknown> = Promise.resolve();

export function compileFile(source: string, shown: string): Promise<{ js: string } | { error: string }> {
	const next = queue.then(() => compileAlone(source, shown));
	queue = next.catch(() => undefined);
	return next;
}

async function compileAlone(source: string, shown: string): Promise<{ js: string } | { error: string }> {
	if (Buffer.byteLength(source) > maxSourceBytes)
		return { error: `larger than ${maxSourceBytes / 1024} KB, which the grader does not compile` };
	for (let attempt = 1; ; attempt++) {
		let timer: NodeJS.Timeout | undefined;
		let slow = false;
		try {
			const limit = new Promise<never>((_, fail) => {
				timer = setTimeout(() => {
					slow = true;
					fail(new Error('the compile took too long'));
				}, compileLimitMs);
			});
			return { js: await Promise.race([esbuildOnce(source, shown), limit]) };
		} catch (error) {
			if (!slow && !serviceDied(error)) return { error: compileError(error) };
			await stop();
			if (attempt === 2)
				return {
					error: slow
						? `the compiler (esbuild) took more than ${compileLimitMs / 1000} s on it twice; simplify the file`
						: 'the compiler (esbuild) crashed on it twice; simplify the file'
				};
		} finally {
			clearTimeout(timer);
		}
	}
}

// A compile error is a list of messages; a service that died says so in its message instead.
const serviceDied = (error: unknown) =>
	!(error as { errors?: unknown[] }).errors?.length &&
	/service (was stopped|is no longer running)/i.test(String(error));

function compileError(error: unknown): string {
	const first = (error as { errors?: { text: string; location?: { line: number } | null }[] }).errors?.[0];
	return first ? `${first.text}${first.location ? ` (line ${first.location.line})` : ''}` : String(error);
}

async function esbuildOnce(source: string, shown: string): Promise<string> {
	const result = await build({
		stdin: { contents: source, loader: 'ts', sourcefile: shown },
		bundle: true,
		write: false,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		// Node 20 reads `import … with { type: 'json' }` (06's rules); esbuild would drop the attribute for node20.
		supported: { 'import-attributes': true },
		logLevel: 'silent',
		plugins: [keepImports]
	});
	return result.outputFiles[0]!.text;
}

const vitestStub = `// Tests are declared by Vitest, not by the grader: in the sandbox these only say so.
const absent = (name) => () => { throw new Error(name + ' is not available while grading'); };
export const describe = absent('describe');
export const it = absent('it');
export const expect = absent('expect');
`;

// The schedules' compiled JSON Schema validators (272 KB, and Ajv's runtime with them) are loaded on first use
// in the sandbox, not when a player is imported: the grader hands every input in as data, checked before it is
// planned, so no observer reads a schedule file, and parsing them cost a run of 01 about 40 ms of node's CPU, a
// sixth of it. Learner code may still load the shipped schedules (the `hard-coded` sample does): the first
// validator it asks for loads them all, as CommonJS, which an ES module can load synchronously.
const validators = 'harness/core/validators/compiled';
const validatorsOnFirstUse = `// The compiled validators (compiled.cjs), loaded when a schedule is first checked, not at import.
import { createRequire } from 'node:module';
const load = createRequire(import.meta.url);
let loaded;
export function compiledValidators() {
	return new Proxy({}, { get: (_, kind) => (loaded ??= load('./compiled.cjs').compiledValidators())[kind] });
}
`;

async function loadValidatorsOnFirstUse(dir: string): Promise<void> {
	const source = readFileSync(join(dir, `${validators}.js`), 'utf8');
	const { code } = await transform(source, { format: 'cjs', loader: 'js', target: 'node20' });
	writeFileSync(join(dir, `${validators}.cjs`), code);
	writeFileSync(join(dir, `${validators}.js`), validatorsOnFirstUse);
}

export type Harness = {
	// The folder the sandbox sees as /wb (read-only), with empty folders where the rest is bound.
	dir: string;
	// Each exercise's observers and every harness module they import, as paths under /wb: what a run freezes.
	uses: Map<string, string[]>;
	// The packages (node_modules) each exercise's observers load, by name: what a run parses before its first play.
	packages: Map<string, string[]>;
	// Each exercise folder's given files (not the learner's, not tests), compiled, by folder then file name.
	given: Map<string, Map<string, string>>;
};

// Every .ts file under `from` compiled (and every .js file copied), subfolders too (the harness groups its parts in folders), tests left out.
async function compileFolder(from: string, to: string, skip: (name: string) => boolean) {
	mkdirSync(to, { recursive: true });
	for (const entry of readdirSync(from, { withFileTypes: true })) {
		const name = entry.name;
		if (entry.isDirectory()) {
			await compileFolder(join(from, name), join(to, name), skip);
			continue;
		}
		// Plain JavaScript (the schedules' compiled validators, loaded on first use below) and JSON (06's rules) are the harness's own:
		// copied as they are.
		if ((name.endsWith('.js') || name.endsWith('.json')) && !skip(name))
			writeFileSync(join(to, name), readFileSync(join(from, name)));
		if (!name.endsWith('.ts') || name.endsWith('.test.ts') || name.endsWith('.d.ts') || skip(name)) continue;
		const compiled = await compileFile(readFileSync(join(from, name), 'utf8'), name);
		if ('error' in compiled) throw new Error(`${join(from, name)} does not compile: ${compiled.error}`);
		writeFileSync(join(to, name.replace(/\.ts$/, '.js')), compiled.js);
	}
}

const made = new Map<boolean, Promise<Harness>>();

// Removes the compiled harnesses (a grading calls it when done): an exit hook alone is not enough, since a
// test worker thread ends without the process's exit event. The next grading compiles them again.
export async function removeCompiledHarness(): Promise<void> {
	const harnesses = [...made.values()];
	made.clear();
	for (const harness of harnesses) {
		const dir = await harness.then((h) => h.dir).catch(() => null);
		if (dir) rmSync(dir, { recursive: true, force: true });
	}
}

export function compiledHarness(options: { sandboxed: boolean }): Promise<Harness> {
	let harness = made.get(options.sandboxed);
	if (!harness) {
		harness = makeHarness(options.sandboxed);
		made.set(options.sandboxed, harness);
	}
	return harness;
}

async function makeHarness(sandboxed: boolean): Promise<Harness> {
	// Stamped: a grader killed outright leaves it to the next grading's sweep (leftovers.ts).
	const dir = privateStampedFolder(tmpdir(), 'grade-harness-');
	process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
	const imports = { '#harness/*': './harness/*', '#grader-vitest': './vitest.js' };
	writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', imports }));
	writeFileSync(join(dir, 'vitest.js'), vitestStub);
	writeFileSync(join(dir, 'job.json'), '');
	await compileFolder(join(root, 'harness'), join(dir, 'harness'), () => false);
	await loadValidatorsOnFirstUse(dir);
	await compileFolder(join(root, 'grader', 'inside'), join(dir, 'inside'), () => false);
	// What both sides of the wall share: job.json's and the observation lines' types, the channel's descriptor.
	await compileFolder(join(root, 'grader', 'channel'), join(dir, 'channel'), () => false);
	mkdirSync(join(dir, 'exercises'));
	writeFileSync(
		join(dir, 'exercises', 'manifest.json'),
		readFileSync(join(root, 'exercises', 'manifest.json'))
	);
	const given = new Map<string, Map<string, string>>();
	for (const exercise of exercises()) {
		const files = new Map<string, string>();
		const from = join(root, 'exercises', exercise.folder);
		for (const name of readdirSync(from)) {
			if (!name.endsWith('.ts') || name.endsWith('.test.ts') || exercise.learnerFiles.includes(name))
				continue;
			const compiled = await compileFile(readFileSync(join(from, name), 'utf8'), name);
			if ('error' in compiled) throw new Error(`${join(from, name)} does not compile: ${compiled.error}`);
			files.set(name.replace(/\.ts$/, '.js'), compiled.js);
		}
		given.set(exercise.folder, files);
		mkdirSync(join(dir, 'exercises', exercise.folder));
	}
	const graphs = exercises().map(
		(exercise) => [exercise.folder, importedBy(dir, `inside/${exercise.folder}.observe.js`)] as const
	);
	const uses = new Map(graphs.map(([folder, graph]) => [folder, graph.modules]));
	const packages = new Map(graphs.map(([folder, graph]) => [folder, graph.packages]));
	if (sandboxed) {
		for (const inside of ['node_modules', 'schedules']) mkdirSync(join(dir, inside));
	} else {
		symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
		symlinkSync(join(root, 'schedules'), join(dir, 'schedules'), 'dir');
	}
	return { dir, given, uses, packages };
}

// The compiled harness files `file` imports, directly or not (esbuild prints every import as `from "…"`,
// or `import("…")`), and the packages they name (neither node's own modules nor the Vitest stub).
function importedBy(dir: string, file: string): { modules: string[]; packages: string[] } {
	const seen = new Set<string>();
	const packages = new Set<string>();
	const visit = (path: string) => {
		// A JSON file (06's rules) is data its importer holds, not a module to load and freeze on its own.
		if (seen.has(path) || !path.endsWith('.js')) return;
		seen.add(path);
		const text = readFileSync(join(dir, path), 'utf8');
		// Static imports, and dynamic ones (a module loaded on first use is frozen like the rest).
		for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
			if (spec!.startsWith('#harness/')) visit(`harness/${spec!.slice('#harness/'.length)}`);
			else if (spec!.startsWith('.')) visit(posix.normalize(posix.join(posix.dirname(path), spec!)));
			else if (!spec!.startsWith('node:') && !spec!.startsWith('#')) packages.add(spec!);
		}
	};
	visit(file);
	return { modules: [...seen], packages: [...packages].sort() };
}
