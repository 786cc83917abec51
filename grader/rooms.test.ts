// The grader's rooms, and what each may import, read from the import lines of every file in grader/ (the
// sample submissions under samples/submissions/ are a learner's files, not the grader's, and are not read).
//
//   trusted/   orchestration, expectations, verdicts, scores, reports        outside the sandbox
//   sandbox/   what builds and runs the sandbox                                outside
//   checks/    the held-out checks and their judges                            outside, in the grader's process
//   inside/    what runs inside the sandbox, next to the learner's code        inside
//   channel/   what crosses the wall: job.json and the observation lines       both: types and pure constants
//   samples/   the sample submissions and their test                           outside
//   package/   the Gradescope package and the platforms' scripts               outside
//
// `import type` leaves nothing to run, so a type may cross where a value may not. Any other import, even
// `import { type A }`, loads the module, and counts as a value.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const grader = fileURLToPath(new URL('./', import.meta.url));
const workbook = resolve(grader, '..');
const rooms = ['trusted', 'sandbox', 'checks', 'inside', 'channel', 'samples', 'package'];
const outside = rooms.filter((room) => room !== 'inside' && room !== 'channel');

// One import: the file (under grader/), what it names, where that is, and whether only types come of it.
// reaches: a room, or the workbook's folder it is in ('harness', 'lib', 'solutions'), or a package.
type Import = { file: string; spec: string; reaches: string; typeOnly: boolean };

// The import lines of a file's text: static imports and re-exports, bare imports, and dynamic ones of a
// literal path. A path computed at run time (probe.ts loads checks/ and inside/ by path) is not a line.
function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
	const found: { at: number; spec: string; typeOnly: boolean }[] = [];
	for (const m of text.matchAll(/^[ \t]*(?:import|export)\s+(type\s+)?[^;'"]*?\bfrom\s*'([^']+)'/gm))
		found.push({ at: m.index, spec: m[2]!, typeOnly: m[1] !== undefined });
	for (const m of text.matchAll(/^[ \t]*import\s*'([^']+)'/gm))
		found.push({ at: m.index, spec: m[1]!, typeOnly: false });
	for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g))
		found.push({ at: m.index, spec: m[1]!, typeOnly: false });
	return found.sort((a, b) => a.at - b.at).map(({ spec, typeOnly }) => ({ spec, typeOnly }));
}

const roomOf = (file: string) => file.split('/')[0]!;

function reaches(file: string, spec: string): string {
	if (spec.startsWith('#harness/')) return 'harness';
	if (!spec.startsWith('.')) return spec;
	const target = resolve(grader, dirname(file), spec);
	const inGrader = relative(grader, target);
	return inGrader.startsWith('..') ? relative(workbook, target).split('/')[0]! : roomOf(inGrader);
}

function sourceFiles(dir: string): string[] {
	return readdirSync(join(grader, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = dir ? `${dir}/${entry.name}` : entry.name;
		if (entry.isDirectory()) return path === 'samples/submissions' ? [] : sourceFiles(path);
		return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
	});
}

const imports: Import[] = sourceFiles('').flatMap((file) =>
	importsOf(readFileSync(join(grader, file), 'utf8')).map(({ spec, typeOnly }) => ({
		file,
		spec,
		reaches: reaches(file, spec),
		typeOnly
	}))
);

type Rule = { from: string[]; may: (reached: string, typeOnly: boolean) => boolean };
// The rules of the house, and the imports that break one, as "file: 'spec'".
const rules: Record<string, Rule> = {
	'nothing outside the sandbox imports a value from inside/, only its types': {
		from: outside,
		may: (reached, typeOnly) => reached !== 'inside' || typeOnly
	},
	"inside/ imports none of the grader's other rooms, not even a type, nor lib/, exercises/ or solutions/": {
		from: ['inside'],
		may: (reached) => ![...outside, 'lib', 'solutions', 'exercises'].includes(reached)
	},
	'channel/ imports nothing: both sides import it, and it needs no one': {
		from: ['channel'],
		may: (reached) => reached === 'channel'
	},
	'sandbox/ imports no value from trusted/, checks/, samples/ or package/: trusted/ drives it, never back': {
		from: ['sandbox'],
		may: (reached, typeOnly) => typeOnly || !['trusted', 'checks', 'samples', 'package'].includes(reached)
	}
};
const broken = (rule: Rule, all: Import[]) =>
	all
		.filter((one) => rule.from.includes(roomOf(one.file)) && !rule.may(one.reaches, one.typeOnly))
		.map((one) => `${one.file}: ${one.typeOnly ? 'import type' : 'import'} '${one.spec}'`);

describe('the rooms of grader/', () => {
	it('holds every file in a room: nothing loose at the top but this test and the README', () => {
		expect(readdirSync(grader).sort()).toEqual([...rooms, 'README.md', 'rooms.test.ts'].sort());
	});

	it("reads every room's files, and the import lines of all but channel/", () => {
		for (const room of rooms) {
			expect(sourceFiles(room).length, room).toBeGreaterThan(0);
			if (room !== 'channel')
				expect(imports.filter((one) => roomOf(one.file) === room).length, room).toBeGreaterThan(0);
		}
	});

	for (const [name, rule] of Object.entries(rules))
		it(name, () => {
			expect(broken(rule, imports)).toEqual([]);
		});
});

describe('the import lines, as the rules read them', () => {
	it('tells a type from a value, over several lines, and finds bare and dynamic imports', () => {
		const text = [
			"import type { A } from '../inside/a.ts';",
			"import { b, type C } from '../inside/b.ts';",
			'import {',
			'\td,',
			'\te',
			"} from './d.ts';",
			"export type { F } from './f.ts';",
			"export { g } from './g.ts';",
			"import './side.ts';",
			"const h = 'from';",
			"const x = await import('./x.ts');"
		].join('\n');
		expect(importsOf(text)).toEqual([
			{ spec: '../inside/a.ts', typeOnly: true },
			{ spec: '../inside/b.ts', typeOnly: false },
			{ spec: './d.ts', typeOnly: false },
			{ spec: './f.ts', typeOnly: true },
			{ spec: './g.ts', typeOnly: false },
			{ spec: './side.ts', typeOnly: false },
			{ spec: './x.ts', typeOnly: false }
		]);
	});

	it('names the room an import reaches, or the workbook folder, or the package', () => {
		expect(reaches('trusted/expect.ts', '../inside/observer.ts')).toBe('inside');
		expect(reaches('checks/07-close-and-reopen.held.ts', '../../solutions/07/status.ts')).toBe('solutions');
		expect(reaches('sandbox/sandbox.ts', '../../lib/packages.ts')).toBe('lib');
		expect(reaches('inside/main.ts', '#harness/core/todo.ts')).toBe('harness');
		expect(reaches('inside/main.ts', 'node:fs')).toBe('node:fs');
	});

	it('finds an import that breaks a rule: a value from inside/ in trusted/, and trusted/ in inside/', () => {
		const planted: Import[] = [
			{ file: 'trusted/x.ts', spec: '../inside/observer.ts', reaches: 'inside', typeOnly: false },
			{ file: 'trusted/y.ts', spec: '../inside/observer.ts', reaches: 'inside', typeOnly: true },
			{ file: 'inside/z.ts', spec: '../trusted/probe.ts', reaches: 'trusted', typeOnly: true }
		];
		const found = Object.values(rules).flatMap((rule) => broken(rule, planted));
		expect(found).toEqual([
			"trusted/x.ts: import '../inside/observer.ts'",
			"inside/z.ts: import type '../trusted/probe.ts'"
		]);
	});
});
