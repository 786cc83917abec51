// The harness as plain JavaScript, for the learner's `npm test` and `npm run progress`: Node loads it natively in
// the test thread, where Vitest's module runner would fetch and evaluate each of its modules in turn (about
// 25 ms a module here, 58 of them for exercise 06). The learner's files and the test files still go through
// Vitest, so their stack lines, their type check and their story stay as they are.
//
//   const built = nativeHarness(root);   // { dir, resolve } or null; built once for each content of harness/
//   built.resolve('#harness/core/model.ts')   // …/.learner/native-harness/<key>/harness/core/model.js
//
// The key is a hash of every file of harness/ (its TypeScript and JSON) and of the workbook's place: an edit
// builds a new folder, and the folders of other keys are removed. Each module is built on its own with
// esbuild (types removed, an inline source map, so the thread's stack lines name harness/…/x.ts at the very
// line and column Vitest's own build names) and its imports point at the built modules: `./x.ts` at
// `./x.js`, `#harness/…` at the built file, a JSON file at a module made of it, any other file of the workbook
// at the file itself. So every import of one harness module, the learner's, a test's or the harness's own,
// reaches one instance, and classes and `instanceof` stay one. A folder is built aside and renamed into place,
// so two runs at once never see half of one. Anything that stops the build (no esbuild, a folder it cannot
// write, a harness file importing TypeScript from outside harness/ or reading import.meta beyond its url)
// gives null: the run loads the harness through Vitest, as every other project does.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export type NativeHarness = { dir: string; resolve: (specifier: string) => string | null };

const sources = (folder: string): string[] =>
	readdirSync(folder, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && /\.(ts|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
		.map((entry) => join(entry.parentPath, entry.name))
		.sort();

export function nativeHarness(root: string): NativeHarness | null {
	const harness = join(root, 'harness');
	const cache = join(root, '.learner', 'native-harness');
	try {
		const files = sources(harness);
		const hash = createHash('sha256').update(root);
		for (const file of files) hash.update(`\0${relative(harness, file)}\0`).update(readFileSync(file));
		const key = hash.digest('hex').slice(0, 16);
		const dir = join(cache, key);
		mkdirSync(cache, { recursive: true });
		if (!readdirSync(cache, { withFileTypes: true }).some((entry) => entry.name === key))
			build(root, files, cache, key);
		const resolve = (specifier: string): string | null => {
			const inside = specifier.startsWith('#harness/')
				? specifier.slice('#harness/'.length)
				: relative(harness, specifier);
			if (inside.startsWith('..') || !inside.endsWith('.ts')) return null;
			return join(dir, 'harness', inside.replace(/\.ts$/, '.js'));
		};
		return { dir, resolve };
	} catch {
		return null;
	}
}

function build(root: string, files: string[], cache: string, key: string): void {
	const { transformSync } = createRequire(join(root, 'package.json'))('esbuild') as typeof import('esbuild');
	const aside = join(cache, `.${key}-${process.pid}`);
	for (const file of files) {
		const out = join(aside, relative(root, file));
		mkdirSync(dirname(out), { recursive: true });
		const text = readFileSync(file, 'utf8');
		if (file.endsWith('.json')) {
			writeFileSync(`${out}.js`, `export default ${text.trim()};\n`);
			continue;
		}
		const built = transformSync(pointImports(root, file, text), {
			loader: 'ts',
			format: 'esm',
			target: 'esnext',
			sourcemap: 'inline',
			sourcesContent: false,
			sourcefile: file,
			tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } }
		});
		writeFileSync(out.replace(/\.ts$/, '.js'), built.code);
	}
	try {
		renameSync(aside, join(cache, key));
	} catch {
		// Another run built the same key meanwhile: its folder is as good as this one.
		rmSync(aside, { recursive: true, force: true });
	}
	// The folders of other contents, and those a run stopped while building left aside.
	for (const entry of readdirSync(cache))
		if (entry !== key && !(entry.startsWith('.') && running(Number(entry.split('-').pop()))))
			rmSync(join(cache, entry), { recursive: true, force: true });
}

function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

// The module's imports, pointed at the built modules, and its own address kept as the source file's, so that
// paths it finds from import.meta.url are the workbook's. Every replacement keeps the line's length where a
// stack line could point (import.meta.url), and import lines never throw.
function pointImports(root: string, file: string, text: string): string {
	const harness = join(root, 'harness');
	const point = (specifier: string): string => {
		const target = specifier.startsWith('#harness/')
			? join(harness, specifier.slice('#harness/'.length))
			: specifier.startsWith('.')
				? join(dirname(file), specifier)
				: null;
		if (target === null) return specifier;
		const inside = relative(harness, target);
		if (inside.startsWith('..') && /\.tsx?$/.test(target))
			throw new Error(`${file} imports ${specifier}, TypeScript outside the harness: not built`);
		if (inside.startsWith('..') || !/\.(ts|json)$/.test(target)) return pathToFileURL(target).href;
		const from = relative(dirname(file), target).split(sep).join('/');
		const path = from.startsWith('.') ? from : `./${from}`;
		return path.endsWith('.ts') ? path.replace(/\.ts$/, '.js') : `${path}.js`;
	};
	if (/import\.meta(?!\.url)/.test(text))
		throw new Error(`${file} reads import.meta beyond its url: not built`);
	const here = JSON.stringify(pathToFileURL(file).href);
	return (
		text
			.replace(
				/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'([^']+)'(\s*with\s*\{\s*type:\s*'json'\s*\})?/g,
				(_, lead: string, specifier: string) => `${lead}'${point(specifier)}'`
			)
			.replaceAll('import.meta.url', '__sourceURL__()') + `\nfunction __sourceURL__() { return ${here}; }\n`
	);
}
