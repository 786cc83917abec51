// The rules of the house: which room may import which. It reads the import lines of every .ts, .tsx, .js and
// .mjs file of the workbook and fails on each one that reaches where it should not, naming the file, the line
// and the rule. Read it as the map:
//
//   room                      holds                                          may import
//   harness/core/             model, todo, manifest, loader, plays, words    no kind, and not database/,
//                                                                            scheduler/ or postgres/
//   harness/<kind>/           one kind's loader, player, judge, words and    core, database, scheduler,
//     handler race client       fakes: file → loader → player → judge →      postgres; another kind only
//     outbox endpoint status    words, with no step calling back up          by a declared edge (below)
//   harness/<kind>/words.ts   what a kind's results read as                  values from core and model
//                                                                            files only (types from any)
//   harness/database/         the in-memory database, the scheduler, the     core and one another,
//     scheduler/ postgres/      same Connection on PostgreSQL                  but no kind
//   exercises/ solutions/     the learner's files, and working versions      #harness/… and their own tree
//   learner/                  the learner's commands                         anything but tools/
//   tools/                    the maintainers' checks                        anything
//   lib/ form/ playground/    the shared library, 04's form, the playground  not tools/, not learner/
//   grader/inside/            what runs in the sandbox, beside learner code  (grader/rooms.test.ts: the rest)
//   grader/ (the rest)        the trusted half: plans, judges, scores        only types from the sandbox's
//
// The declared edges between kinds: race, outbox and endpoint use handler's player (they play the handler
// schedules too); endpoint uses client (06 plays 04's journeys over HTTP); client reads the HTTP contract,
// endpoint/contract.ts, and nothing else of endpoint. Everything else between kinds goes through core.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';

// The kinds are harness/'s folders but core and the rooms below it: a new kind is held to the rules as it comes.
const lower = ['database', 'scheduler', 'postgres'];
const kinds = readdirSync(join(workbookRoot, 'harness'), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && entry.name !== 'core' && !lower.includes(entry.name))
	.map((entry) => entry.name);
const declared: Record<string, string[]> = {
	race: ['handler'],
	outbox: ['handler'],
	endpoint: ['handler', 'client']
};

// The rules each import line is held to, by where it is and what it reaches (paths from the workbook's root).
// bare: a package's name (vitest, node:fs), not a file of the workbook.
type Import = {
	file: string;
	line: number;
	text: string;
	specifier: string;
	target: string;
	typeOnly: boolean;
	bare: boolean;
};
const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
const kindOf = (path: string) => kinds.find((kind) => inside(path, `harness/${kind}`));
const inSandbox = (path: string) => inside(path, 'grader/inside');
// A test stands above the walk: it may play several kinds together (PostgreSQL's differential checks do).
const isTest = (path: string) => path.endsWith('.test.ts');

const rules: { rule: string; breaks: (i: Import) => boolean }[] = [
	{
		rule: 'a kind imports another kind only through core, or by a declared edge',
		breaks: ({ file, target }) => {
			const [from, to] = [kindOf(file), kindOf(target)];
			if (isTest(file) || !from || !to || from === to || declared[from]?.includes(to)) return false;
			return !(from === 'client' && target === 'harness/endpoint/contract.ts');
		}
	},
	{
		rule: 'core imports no kind, and not the database, the scheduler or postgres',
		breaks: ({ file, target }) =>
			inside(file, 'harness/core') &&
			(kindOf(target) !== undefined || lower.some((room) => inside(target, `harness/${room}`)))
	},
	{
		rule: 'the database, the scheduler and postgres import no kind',
		breaks: ({ file, target }) =>
			!isTest(file) && lower.some((room) => inside(file, `harness/${room}`)) && kindOf(target) !== undefined
	},
	{
		rule: "a kind's words import values only from core and model files: a player or judge is a step back up",
		breaks: ({ file, target, typeOnly, bare }) =>
			kindOf(file) !== undefined &&
			file.endsWith('/words.ts') &&
			!typeOnly &&
			!bare &&
			!inside(target, 'harness/core') &&
			!target.endsWith('/model.ts') &&
			target !== 'harness/endpoint/contract.ts'
	},
	{
		rule: 'a judge calls no player: it reads what the player played',
		breaks: ({ file, target, typeOnly }) =>
			!typeOnly && kindOf(file) !== undefined && file.endsWith('/judge.ts') && target.endsWith('/play.ts')
	},
	{
		rule: 'a loader calls no player, judge or words: it only reads the files',
		breaks: ({ file, target, typeOnly }) =>
			!typeOnly &&
			kindOf(file) !== undefined &&
			file.endsWith('/schedules.ts') &&
			/\/(play|judge|words)\.ts$/.test(target)
	},
	{
		rule: "the database, the scheduler and postgres tell their traces without the kinds' words",
		breaks: ({ file, target }) =>
			lower.some((room) => inside(file, `harness/${room}`)) &&
			!file.endsWith('.test.ts') &&
			file !== 'harness/postgres/differential.ts' &&
			(target.endsWith('/words.ts') || target === 'harness/core/report.ts')
	},
	{
		rule: 'the trusted grader imports only types from what runs inside the sandbox',
		breaks: ({ file, target, typeOnly }) =>
			inside(file, 'grader') && !inSandbox(file) && inSandbox(target) && !typeOnly
	},
	{
		rule: "only tools/ imports tools/ (the maintainers' checks)",
		breaks: ({ file, target }) => !inside(file, 'tools') && inside(target, 'tools')
	},
	{
		rule: "only learner/ and tools/ import learner/ (the learner's commands)",
		breaks: ({ file, target }) =>
			!inside(file, 'learner') && !inside(file, 'tools') && inside(target, 'learner')
	},
	{
		rule: 'exercises/ and solutions/ import #harness/…, and nothing else outside their own tree',
		breaks: ({ file, specifier, target, bare }) => {
			const tree = ['exercises', 'solutions'].find((top) => inside(file, top));
			return tree !== undefined && !bare && !specifier.startsWith('#harness/') && !inside(target, tree);
		}
	}
];

// The files: those of tsconfig.json's rooms and the workbook's root, and the plain JavaScript beside them. The
// grader's samples are learners' copies (data), and the validators are generated.
const { include } = JSON.parse(readFileSync(join(workbookRoot, 'tsconfig.json'), 'utf8')) as {
	include: string[];
};
const rooms = include.filter((entry) => !entry.includes('*'));
const skipped = ['node_modules', 'grader/samples', 'harness/core/validators'];
function sourceFiles(): string[] {
	const files: string[] = [];
	const walk = (path: string) => {
		if (skipped.includes(path)) return;
		if (statSync(join(workbookRoot, path)).isDirectory())
			for (const name of readdirSync(join(workbookRoot, path))) walk(path ? `${path}/${name}` : name);
		else if (/\.(ts|tsx|js|mjs)$/.test(path)) files.push(path);
	};
	for (const room of rooms) walk(room);
	for (const name of readdirSync(workbookRoot)) if (/\.(ts|js|mjs)$/.test(name)) files.push(name);
	return files;
}

// Static imports and re-exports (over several lines too) and import('…'); never one in a comment.
const staticImport = /^[ \t]*(?:import|export)\s+(type\s)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/.source;
const importLine = new RegExp(`${staticImport}|\\bimport\\(\\s*['"]([^'"]+)['"]\\s*\\)`, 'gm');
function importsOf(file: string): Import[] {
	const text = readFileSync(join(workbookRoot, file), 'utf8');
	return [...text.matchAll(importLine)].flatMap((found) => {
		const start = text.lastIndexOf('\n', found.index) + 1;
		if (/^\s*(\/\/|\*)/.test(text.slice(start, found.index + 1))) return [];
		const specifier = (found[2] ?? found[3]!).replace(/\?.*$/, '');
		const local = specifier.startsWith('.') || specifier.startsWith('#harness/');
		const target = specifier.startsWith('#harness/')
			? `harness/${specifier.slice('#harness/'.length)}`
			: specifier.startsWith('.')
				? relative(workbookRoot, join(workbookRoot, dirname(file), specifier))
						.split(sep)
						.join('/')
				: specifier;
		return [
			{
				file,
				line: text.slice(0, found.index).split('\n').length,
				text: found[0].replace(/\s+/g, ' ').trim(),
				specifier,
				target,
				typeOnly: found[1] !== undefined,
				bare: !local
			}
		];
	});
}

describe('the rules of the house', () => {
	const imports = sourceFiles().flatMap(importsOf);
	const broken = imports.flatMap((i) =>
		rules
			.filter(({ breaks }) => breaks(i))
			.map(({ rule }) => ({ ...i, rule, edge: `${i.file} → ${i.target}` }))
	);

	it('reads the import lines of every room', () => {
		const read = new Set(imports.map((i) => i.file.split('/')[0]));
		for (const room of rooms) expect(read, room).toContain(room);
		expect(imports.length).toBeGreaterThan(500);
	});

	it('no import line breaks a rule', () => {
		const problems = broken.map(
			({ file, line, text, rule }) => `${file}:${line}: ${text}\n    breaks: ${rule}`
		);
		expect(problems.length, `\n${problems.join('\n')}\n`).toBe(0);
	});
});
