// What in a Go hint is TypeScript's, which a Go learner cannot act on: a .ts file, an import through
// #harness, an npm command, TypeScript's own syntax in code, or a name the Go API spells otherwise
// (`snapshot()` where Go has Snapshot, copyDatabase where it has CopyDatabase).
//
//   const names = goNames(workbookRoot)       every name go/'s sources declare or use, read from them
//   typeScriptIn(hints, names)                [] for a Go hint; otherwise each word of TypeScript's, one line each
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hint } from './hints.ts';

export type GoNames = { exported: Set<string>; spelled: Set<string> };

// Go's own words, which a hint may write in lower case whatever the API exports (`len`, `error`, `copy`).
const goWords = new Set(
	(
		'append cap clear close complex copy delete imag len make max min new panic print println real recover ' +
		'bool byte error int int64 string rune any nil true false iota func type struct interface map chan ' +
		'return if else for range switch case default go defer select break continue goto package import var const'
	).split(' ')
);

function goFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return entry.name === 'testdata' ? [] : goFiles(path);
		return entry.name.endsWith('.go') && !entry.name.endsWith('_test.go') ? [path] : [];
	});
}

// The names go/'s sources export, and the names a learner's Go spells (go/exercises/ and go/solutions/, their
// comments and strings left out): a field or a variable written in lower case there is Go's own.
export function goNames(root: string): GoNames {
	const names: GoNames = { exported: new Set(), spelled: new Set() };
	for (const file of goFiles(join(root, 'go'))) {
		const code = readFileSync(file, 'utf8').replace(
			/\/\/.*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|`[^`]*`/g,
			' '
		);
		const learners = /[\\/]go[\\/](exercises|solutions)[\\/]/.test(file);
		for (const [name] of code.matchAll(/\b[A-Za-z_]\w*\b/g)) {
			if (/^[A-Z]/.test(name)) names.exported.add(name);
			else if (learners) names.spelled.add(name);
		}
	}
	return names;
}

// A code span may wrap onto the next line of its paragraph, as Markdown's may.
const inCode = /```[\s\S]*?```|`(?:[^`\n]|\n(?!\n))+`/g;
const codeSpans = (text: string) => [...text.matchAll(inCode)].map((m) => m[0]);

// TypeScript's syntax, looked for in code only: `this.db`, `===`, `=>`, `undefined`, 'a string'.
const typeScriptSyntax: [RegExp, string][] = [
	[/\bthis\./, 'this.'],
	[/[!=]==/, '=== or !=='],
	[/=>/, '=>'],
	[/\b(undefined|null|private|readonly|await|async|let)\b/, 'a TypeScript keyword'],
	[/'[^'\n]{2,}'/, "a string in single quotes ('…')"]
];

function wordsOfTypeScript(text: string, names: GoNames): string[] {
	const words: string[] = [];
	const paths = text.match(/[\w./-]*\w\.ts\b/g) ?? [];
	words.push(...paths.map((path) => `a TypeScript file, ${path}`));
	if (/#harness\b/.test(text)) words.push('an import through #harness');
	if (/\b(npm|npx)\b/.test(text)) words.push('an npm command');
	const spans = codeSpans(text);
	for (const span of spans)
		for (const [pattern, what] of typeScriptSyntax)
			if (pattern.test(span)) words.push(`TypeScript's ${what} in ${span}`);
	// A name Go exports capitalised, written lower-case: in code any such word, in prose a camelCase one.
	const prose = text.replace(inCode, ' ');
	const candidates = [
		...spans.flatMap(
			(span) => span.replace(/"(?:\\.|[^"\\\n])*"|[\w.-]*\/[\w./-]*/g, ' ').match(/\b[a-z]\w*\b/g) ?? []
		),
		...(prose.match(/\b[a-z]+[A-Z]\w*\b/g) ?? [])
	];
	for (const word of new Set(candidates)) {
		const goSpelling = word[0]!.toUpperCase() + word.slice(1);
		if (names.exported.has(goSpelling) && !names.spelled.has(word) && !goWords.has(word))
			words.push(`${word}, which Go spells ${goSpelling}`);
	}
	return [...new Set(words)];
}

export function typeScriptIn(hints: Hint[], names: GoNames): string[] {
	return hints.flatMap((hint, i) =>
		wordsOfTypeScript(`${hint.title}\n${hint.body}`, names).map(
			(word) => `hint ${i + 1}, "${hint.title}": ${word}`
		)
	);
}
