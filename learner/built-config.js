// The learner's config for a run (`npm test`, `npm run progress`): learner/vitest.learner.config.ts and all it
// imports, built once for each content to one JavaScript module, which Node loads as it is, and Vitest started
// with it in this process. Given the .ts, Vite bundles the config again at every run (about a fifth of a second
// of CPU here: npm run bench:learner), and its native loader, on Node 20, starts a thread of module hooks.
//
//   await runVitest(root, 'run', ['exercises/01']);   // as `vitest run --config learner/vitest.learner.config.ts exercises/01`
//
// The module is .learner/config/<key>.mjs, the key a hash of the workbook's place and of every file the last
// build read (.learner/config/inputs.json lists them): an edit to any of them builds a new one, and the old goes.
// The build is esbuild's bundle, as Vite's own is (packages stay imports; each file's import.meta.url is its
// source's). Vitest's options are read by Vitest's own parser, and the config is handed to it inline, as
// `--config` would. Anything this cannot do (no esbuild, a folder it cannot write, a build that fails, help or
// the version asked for, watch mode, the UI) runs Vitest's command line on the .ts instead, as before; a Vitest
// whose files are not where this looks for them (an upgrade moved them) does too, and says so in one line.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const source = 'learner/vitest.learner.config.ts';

// Runs Vitest as its command line would with these arguments and the learner's config.
export async function runVitest(root, mode, args) {
	const vitest = join(root, 'node_modules/vitest/vitest.mjs');
	// The reporter reads the run's arguments (learner/loop-reporter.ts): they stay those of the command line.
	process.argv = [process.argv[0], vitest, mode, '--config', join(root, source), ...args];
	// LEARNER_BUILT_CONFIG=0: the .ts through Vite, as before (learner/built-config.test.ts compares the two).
	const inline =
		mode === 'run' &&
		process.env.LEARNER_BUILT_CONFIG !== '0' &&
		!args.some((arg) => /^(-w|--watch|--ui)(=|$)/.test(arg));
	const started = inline && (await startInline(root));
	if (!started) await import(pathToFileURL(vitest).href);
}

// Vitest's own command line (its parser, its checks of the options, its help, its words for an error at
// startup), with the `run` command handing the built config to Vitest inline instead of naming the file.
// Its modules are found as Vitest's bin finds them; false when any of it is not there.
async function startInline(root) {
	let cli, banner, config;
	try {
		const built = await builtConfig(root);
		if (built === null) return false;
		config = (await import(pathToFileURL(built).href)).default;
	} catch {
		return false;
	}
	try {
		({ cli, banner } = await vitestCommandLine(root));
	} catch (error) {
		movedOnce(root, error);
		return false;
	}
	const { startVitest } = await import('vitest/node');
	const { normalize } = await import('pathe');
	const run = cli.commands.find((command) => command.name === 'run');
	if (!run) {
		movedOnce(root, new Error("Vitest's command line has no run command"));
		return false;
	}
	run.action(async (filters, options) => {
		try {
			const given = cliOptions(filters, { ...options, run: !options.watch });
			const ctx = await startVitest('test', filters.map(normalize), given, config);
			if (!ctx.shouldKeepServer()) await ctx.exit();
		} catch (error) {
			console.error(`\n${banner('Startup Error')}`);
			console.error(error);
			console.error('\n\n');
			if (process.exitCode == null) process.exitCode = 1;
			process.exit();
		}
	});
	cli.parse();
	return true;
}

// Vitest's command line and its words for a startup error, found in its dist files as its bin finds them;
// an error naming the file, from the workbook, where they are not.
async function vitestCommandLine(root) {
	const dist = join(root, 'node_modules/vitest/dist');
	const cac = imported(
		root,
		join(dist, 'cli.js'),
		/import \{ (?<name>\w+) as createCLI \} from '\.\/(?<file>chunks\/cac\.[\w-]+\.js)'/,
		'createCLI from ./chunks/cac.*.js'
	);
	const utils = imported(
		root,
		cac.path,
		/\{ errorBanner \} = await import\('\.\/(?<file>[\w.-]+\.js)'\)\.then\(function \(n\) \{ return n\.(?<name>\w+); \}\)/,
		'errorBanner'
	);
	const cli = (await import(pathToFileURL(cac.path).href))[cac.name]?.();
	const banner = (await import(pathToFileURL(utils.path).href))[utils.name]?.errorBanner;
	if (typeof cli?.parse !== 'function') throw new Error(`${relative(root, cac.path)} makes no command line`);
	if (typeof banner !== 'function') throw new Error(`${relative(root, utils.path)} has no errorBanner`);
	return { cli, banner };
}

// A Vitest whose files are not where this looks (an upgrade moved them) still runs, through Vite as before,
// a little slower: said once, in one line, so the maintainer who upgraded it knows to look here.
let saidMoved = false;
function movedOnce(root, error) {
	if (saidMoved) return;
	saidMoved = true;
	const why = (error instanceof Error ? error.message : String(error)).split('\n')[0].split(root).join('');
	process.stderr.write(
		`learner/built-config.js: Vitest's files are not where it looks (${why}); running the config through Vite instead.\n`
	);
}

// A module one of Vitest's modules imports, and the name it imports it by.
function imported(root, from, pattern, what) {
	let text;
	try {
		text = readFileSync(from, 'utf8');
	} catch {
		throw new Error(`${relative(root, from)} is not there`);
	}
	const found = pattern.exec(text);
	if (!found) throw new Error(`${relative(root, from)} imports no ${what}`);
	return { name: found.groups.name, path: join(dirname(from), found.groups.file) };
}

// What Vitest's command line does to its options before it starts (its `normalizeCliOptions`), with the config
// given inline rather than as a file.
function cliOptions(filters, options) {
	const given = { ...options, config: false };
	if (given.exclude) {
		given.cliExclude = [given.exclude].flat();
		delete given.exclude;
	}
	if (filters.some((filter) => filter.includes(':'))) given.includeTaskLocation ??= true;
	if (typeof given.typecheck?.only === 'boolean') given.typecheck.enabled ??= true;
	if (given.clearCache || given.listTags) {
		given.watch = false;
		given.run = true;
	}
	return given;
}

// The built module's path, built now if its inputs changed since; null when it cannot be.
export async function builtConfig(root) {
	const folder = join(root, '.learner', 'config');
	try {
		const inputs = JSON.parse(readFileSync(join(folder, 'inputs.json'), 'utf8'));
		const path = join(folder, `${keyOf(root, inputs)}.mjs`);
		readFileSync(path, { flag: 'r' });
		return path;
	} catch {
		// Never built, or built from other contents: build it.
	}
	try {
		return await build(root, folder);
	} catch {
		return null;
	}
}

function keyOf(root, inputs) {
	const hash = createHash('sha256').update(root);
	for (const input of inputs) {
		let text = '';
		try {
			text = readFileSync(join(root, input));
		} catch {
			// A file the last build read is gone: the key changes, and the next build says what is missing.
		}
		hash.update(`\0${input}\0`).update(text);
	}
	return hash.digest('hex').slice(0, 16);
}

async function build(root, folder) {
	const esbuild = createRequire(join(root, 'package.json'))('esbuild');
	// Each file's import.meta.url is its source's, as Vite's bundle of a config has it.
	const sourceURL = {
		name: 'source-url',
		setup(on) {
			on.onLoad({ filter: /\.ts$/ }, ({ path }) => ({
				loader: 'js',
				contents: esbuild.transformSync(readFileSync(path, 'utf8'), {
					loader: 'ts',
					format: 'esm',
					define: { 'import.meta.url': JSON.stringify(pathToFileURL(path).href) }
				}).code
			}));
		}
	};
	const result = await esbuild.build({
		entryPoints: [join(root, source)],
		absWorkingDir: root,
		bundle: true,
		packages: 'external',
		format: 'esm',
		platform: 'node',
		target: 'node20',
		write: false,
		metafile: true,
		logLevel: 'silent',
		plugins: [sourceURL]
	});
	const inputs = Object.keys(result.metafile.inputs)
		.map((input) => relative(root, join(root, input)).split('\\').join('/'))
		.sort();
	const key = keyOf(root, inputs);
	mkdirSync(folder, { recursive: true });
	const path = join(folder, `${key}.mjs`);
	// Written aside and renamed into place, so a run at the same time never loads half of it.
	const aside = join(folder, `.${key}-${process.pid}`);
	writeFileSync(aside, result.outputFiles[0].contents);
	renameSync(aside, path);
	writeFileSync(`${aside}.json`, `${JSON.stringify(inputs, null, '\t')}\n`);
	renameSync(`${aside}.json`, join(folder, 'inputs.json'));
	for (const entry of readdirSync(folder))
		if (entry.endsWith('.mjs') && entry !== `${key}.mjs`) rmSync(join(folder, entry), { force: true });
	return path;
}
