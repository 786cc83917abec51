// A Go sample's "// {{SOLUTION}}" line: the Go solution spliced in, as a TypeScript sample's is (samples.ts),
// so a hostile sample rides on the right answers of the solution as it stands, never on a stale copy of it.
//
//   spliceGo(sample, solution)   // the sample's package clause, both import lists as one, the sample's code
//                                // with the marker line replaced by the solution's code after its imports
//
// A sample whose attack is inside one of the solution's functions names it on the marker line, as in
// "// {{SOLUTION}}, its Handle named handleRight": the solution's declaration of Handle (a function or a
// method) is spliced under the new name, so the sample's own Handle can do its harm and then call it.
//
// Go does not allow two files' worth of imports in one file, nor an import it does not use, so the two lists
// are merged: each import once (by its name and path), in gofmt's groups (the standard library, other
// modules, the workbook's own packages), each group sorted by path as gofmt sorts it. The sample must be of
// the solution's package. What comes out is gofmt's layout, and builds as the solution does.
export type GoImport = { name: string | null; path: string };
type GoFile = { header: string; packageName: string; imports: GoImport[]; code: string };

export const solutionMarker = '// {{SOLUTION}}';
const workbookModule = 'workbook';

const importLine = /^\s*(?:([\w.]+)\s+)?"([^"]+)"\s*(?:\/\/.*)?$/;

function importOf(line: string, from: string): GoImport {
	const m = importLine.exec(line);
	if (!m) throw new Error(`${from}: cannot read the import line ${JSON.stringify(line)}`);
	return { name: m[1] ?? null, path: m[2]! };
}

// Splits a Go file into its package clause (with the comments above it), its imports, and the rest.
export function readGoFile(text: string, from: string): GoFile {
	const clause = /^package\s+(\w+)[^\n]*\n/m.exec(text);
	if (!clause) throw new Error(`${from}: no package clause`);
	const header = text.slice(0, clause.index + clause[0].length);
	let rest = text.slice(header.length);
	const imports: GoImport[] = [];
	for (;;) {
		const blank = /^(\s*\n)*/.exec(rest)![0];
		const after = rest.slice(blank.length);
		const block = /^import\s*\(([^)]*)\)[^\n]*\n/.exec(after);
		const single = /^import\s+([^\n(]+)\n/.exec(after);
		const found = block ?? single;
		if (!found) break;
		const lines = block ? block[1]!.split('\n') : [single![1]!];
		for (const line of lines)
			if (line.trim() !== '' && !line.trim().startsWith('//')) imports.push(importOf(line, from));
		rest = after.slice(found[0].length);
	}
	return { header, packageName: clause[1]!, imports, code: rest.replace(/^(\s*\n)+/, '') };
}

// gofmt's grouping, as the workbook's files are written: the standard library, other modules, the workbook.
const groupOf = (path: string) =>
	path === workbookModule || path.startsWith(`${workbookModule}/`)
		? 2
		: path.split('/')[0]!.includes('.')
			? 1
			: 0;

export function importBlock(imports: GoImport[]): string {
	const seen = new Set<string>();
	const groups: GoImport[][] = [[], [], []];
	for (const spec of imports) {
		const key = `${spec.name ?? ''} ${spec.path}`;
		if (seen.has(key)) continue;
		seen.add(key);
		groups[groupOf(spec.path)]!.push(spec);
	}
	const said = (spec: GoImport) => `\t${spec.name ? `${spec.name} ` : ''}"${spec.path}"`;
	const byPath = (a: GoImport, b: GoImport) =>
		a.path < b.path ? -1 : a.path > b.path ? 1 : (a.name ?? '') < (b.name ?? '') ? -1 : 1;
	const lines = groups
		.filter((group) => group.length > 0)
		.map((group) => group.sort(byPath).map(said).join('\n'));
	if (seen.size === 1) return `import ${said(groups.flat()[0]!).trim()}\n`;
	return lines.length ? `import (\n${lines.join('\n\n')}\n)\n` : '';
}

export type Renaming = { from: string; to: string };
const renamingSaid = /^, its (\w+) named (\w+)/;

// The marker line's renamings: "// {{SOLUTION}}, its Handle named handleRight" is [Handle → handleRight].
export function renamingsOf(markerLine: string, from = 'the sample'): Renaming[] {
	let rest = markerLine.trim().slice(solutionMarker.length);
	const renamings: Renaming[] = [];
	for (let said = renamingSaid.exec(rest); said; said = renamingSaid.exec(rest)) {
		renamings.push({ from: said[1]!, to: said[2]! });
		rest = rest.slice(said[0].length);
	}
	if (rest.trim() !== '')
		throw new Error(
			`${from}: the marker line says ${JSON.stringify(rest.trim())}; it may only add ", its F named g"`
		);
	return renamings;
}

// The solution's code with each renamed declaration under its new name: exactly one `func F(` or
// `func (receiver) F(` at the start of a line, or the splice is refused.
export function renamed(code: string, renamings: Renaming[], from = 'the sample'): string {
	return renamings.reduce((text, { from: name, to }) => {
		const declaration = new RegExp(`^(func (?:\\([^)]*\\) )?)${name}([[(])`, 'gm');
		const found = text.match(declaration)?.length ?? 0;
		if (found !== 1)
			throw new Error(
				`${from}: the solution declares func ${name} ${found} times, so it can't be named ${to}`
			);
		return text.replace(declaration, `$1${to}$2`);
	}, code);
}

const isMarker = (line: string) =>
	line.trim() === solutionMarker || line.trim().startsWith(`${solutionMarker},`);

export function spliceGo(sample: string, solution: string, from = 'the sample'): string {
	const own = readGoFile(sample, from);
	const theirs = readGoFile(solution, 'the solution');
	if (own.packageName !== theirs.packageName)
		throw new Error(
			`${from}: package ${own.packageName}, but the solution it splices in is package ${theirs.packageName}`
		);
	const lines = own.code.split('\n');
	const at = lines.findIndex(isMarker);
	if (at < 0) throw new Error(`${from}: no ${solutionMarker} line`);
	const before = lines.slice(0, at).join('\n').trimEnd();
	const after = lines
		.slice(at + 1)
		.join('\n')
		.trim();
	const solved = renamed(theirs.code.trim(), renamingsOf(lines[at]!, from), from);
	const code = [before, solved, after].filter((part) => part !== '').join('\n\n');
	const block = importBlock([...own.imports, ...theirs.imports]);
	return `${[own.header.trimEnd(), block.trimEnd(), code].filter((part) => part !== '').join('\n\n')}\n`;
}
