// Type errors count: the TypeScript compiler's word on the exercises' files, for the short report and progress.
//
//   const checking = checkTypes(root);              // starts the compiler; the tests run meanwhile
//   const errors = await checking;                  // [{ file: 'exercises/01-first-handler/handler.ts', line: 16, … }]
//   typeErrorsIn(errors, exercise);                 // the ones in one exercise's folder
//
// The project's compiler is the native one (TypeScript 7), started as its own binary, so it costs a fraction of a
// second and runs beside Vitest rather than before it (npm run bench:learner measures the loop with it). It
// checks the exercises' files, tests included, with the workbook's tsconfig.json, from a config it writes in
// .learner/ (git-ignored). An exercise with type errors is not green, whatever its tests say.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { exercises, type Exercise } from '#harness/core/manifest.ts';
import { stateFolder } from './state.ts';

export type TypeError = { file: string; line: number; code: string; message: string };

// The native compiler itself when its package is there (no Node in between), else TypeScript's own tsc script.
function compiler(root: string): { command: string; args: string[] } {
	const require = createRequire(join(root, 'package.json'));
	try {
		const native = `@typescript/typescript-${process.platform}-${process.arch}/package.json`;
		return { command: join(dirname(require.resolve(native)), 'lib', 'tsc'), args: [] };
	} catch {
		return {
			command: process.execPath,
			args: [join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc')]
		};
	}
}

// Every .ts file of these exercises (all of them unless told), learner files, given files and tests, as paths
// from the root: a test file is checked too, for a learner file's wrong signature shows in the test that calls it.
function exerciseFiles(root: string, only?: Exercise[]): string[] {
	return (only ?? exercises(root)).flatMap(({ folder }) =>
		readdirSync(join(root, 'exercises', folder))
			.filter((name) => name.endsWith('.ts'))
			.map((name) => `exercises/${folder}/${name}`)
	);
}

// "exercises/01-first-handler/handler.ts(16,9): error TS2322: Type 'number' is not assignable to type 'string'."
// with the lines after it, indented, that say more.
export function parseTypeErrors(output: string): TypeError[] {
	const errors: TypeError[] = [];
	for (const line of output.split('\n')) {
		const found = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
		if (found) errors.push({ file: found[1]!, line: Number(found[2]), code: found[3]!, message: found[4]! });
		else if (/^\s+\S/.test(line) && errors.length) errors.at(-1)!.message += `\n${line.trimEnd()}`;
	}
	return errors;
}

// The exercises a run's arguments name (`exercises/01`, `exercises/03-the-race/prediction.test.ts`), or
// undefined when they name none: then the run is every exercise's.
export function exercisesNamed(list: Exercise[], args: string[]): Exercise[] | undefined {
	const paths = args.map((arg) => arg.replace(/^\.\//, '')).filter((arg) => arg.startsWith('exercises/'));
	const named = list.filter(({ folder }) =>
		paths.some((path) => `exercises/${folder}/`.startsWith(path) || path.startsWith(`exercises/${folder}/`))
	);
	return named.length ? named : undefined;
}

// The compiler on these exercises' files (every exercise's unless told): `npm test exercises/01` checks 01's
// alone, about half the compiler's work of checking them all (npm run bench:learner).
// A hash of everything the compiler reads that a learner or an update can change: the checked files, the
// harness they import, the config, and the lockfile (which pins the compiler and the packages' types).
function contentHash(root: string, files: string[]): string {
	const hash = createHash('sha256');
	const harness = readdirSync(join(root, 'harness'), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts'))
		.sort()
		.map((file) => `harness/${file}`);
	for (const file of [...files, ...harness, 'tsconfig.json', 'package-lock.json']) {
		const path = join(root, file);
		hash.update(`${file}\0${existsSync(path) ? readFileSync(path) : ''}\0`);
	}
	return hash.digest('hex');
}

export function checkTypes(root: string, only?: Exercise[]): Promise<TypeError[]> {
	const folder = join(stateFolder(root), 'types');
	mkdirSync(folder, { recursive: true });
	// Each set of exercises has its own config and build info, so runs of 01 and of 02 do not undo each other's.
	const name = only ? `checked-${only.map((e) => e.id).join('-')}` : 'checked';
	const config = join(folder, only ? `${name}.json` : 'tsconfig.json');
	const up = relative(folder, root) || '.';
	const files = exerciseFiles(root, only).map((file) => `${up}/${file}`);
	// Incremental: the next run reads what the last one learned (.learner/types/checked.tsbuildinfo), and checks
	// again only what changed since, so an unchanged workbook costs the compiler little.
	const compilerOptions = { incremental: true, tsBuildInfoFile: `${name}.tsbuildinfo` };
	const wanted = { extends: `${up}/tsconfig.json`, compilerOptions, include: [], files };
	writeFileSync(config, `${JSON.stringify(wanted, null, '\t')}\n`);
	// Files the compiler has already judged exactly as they are now get the word it gave then, with no compiler
	// started: a run again without an edit, or progress after npm test, costs a hash (a few milliseconds).
	const said = join(folder, `${name}.said.json`);
	const key = contentHash(root, exerciseFiles(root, only));
	try {
		const last = JSON.parse(readFileSync(said, 'utf8')) as { key: string; errors: TypeError[] };
		if (last.key === key) return Promise.resolve(last.errors);
	} catch {
		// Never checked, or a file from an older workbook: ask the compiler.
	}
	const { command, args } = compiler(root);
	return new Promise((resolve) =>
		execFile(command, [...args, '-p', config, '--pretty', 'false'], { cwd: root }, (error, stdout) => {
			const found = parseTypeErrors(stdout);
			// A compiler that could not run says nothing about the learner's files: no errors rather than a false red,
			// and nothing kept.
			if (found.length || !error) writeFileSync(said, `${JSON.stringify({ key, errors: found })}\n`);
			resolve(found.length || !error ? found : []);
		})
	);
}

export const typeErrorsIn = (errors: TypeError[], exercise: Exercise): TypeError[] =>
	errors.filter((error) => error.file.startsWith(`exercises/${exercise.folder}/`));

// One line each, the file named from its exercise's folder: "handler.ts:16  TS2322  Type 'number' is not …".
export const saidTypeError = (error: TypeError): string =>
	`${error.file.split('/').slice(2).join('/')}:${error.line}  ${error.code}  ${error.message}`;

export const typeRule = (id: string) =>
	`The compiler's word counts: fix these before ${id} counts as green (\`npx tsc\` checks the whole workbook).`;
