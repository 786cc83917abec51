// Learners' names, from their folders: unique, stable, and safe to use as a folder under --out.
//
//   learnerNames(['/class/a/alice', '/class/b/alice'])   // names "a/alice" → "a~alice", "b~alice"
//
// A name is the submission's path relative to the class folder (the folder all submissions share), with "/"
// written "~", so two folders with the same last name never meet. The same class gives the same names on every
// run. Refused, with the reason: a path that resolves to the class folder itself or above it (".", ".."), a
// path that ends in "." or "..", or holds another submission, a name the grader uses for its own output
// (class.csv, report.txt…), a name starting with "." or holding characters other than letters, digits and
// ._+@=-, and two paths that would get one name.
import { resolve, sep } from 'node:path';

export const outputNames = ['class.csv', 'report.txt', 'results.json', 'samples'];
export type Named = { path: string; name: string } | { path: string; refused: string };

export function commonFolder(paths: string[]): string {
	const split = paths.map((path) => path.split(sep));
	const parent = split[0]!.slice(0, -1);
	let length = parent.length;
	for (const parts of split)
		while (length > 0 && parts.slice(0, length).join(sep) !== parent.slice(0, length).join(sep)) length--;
	return parent.slice(0, length).join(sep) || sep;
}

export function learnerNames(paths: string[], classFolder?: string): Named[] {
	const resolved = paths.map((path) => resolve(path.replace(/[\\/]+$/, '') || '/'));
	const base = classFolder ? resolve(classFolder) : commonFolder(resolved);
	const named: Named[] = resolved.map((path, i) => {
		const inside = path.startsWith(base === sep ? sep : `${base}${sep}`)
			? path.slice(base.length).replace(/^[\\/]+/, '')
			: '';
		const name = inside.split(sep).join('~');
		const given = paths[i]!;
		if (/(^|[\\/])\.{1,2}[\\/]*$/.test(given)) return { path: given, refused: 'its path ends in . or ..' };
		if (resolved.some((other) => other.startsWith(`${path}${sep}`)))
			return { path: given, refused: 'it holds other submissions' };
		if (!name) return { path: given, refused: 'its path is the class folder itself, or outside it' };
		if (outputNames.includes(name.toLowerCase()))
			return { path: given, refused: `"${name}" is a name the grader writes its own output under` };
		if (name.startsWith('.') || name.split('~').some((part) => part.startsWith('.')))
			return { path: given, refused: `"${name}" starts with "."` };
		if (!/^[\p{L}\p{N}_.+@=~-]+$/u.test(name))
			return { path: given, refused: `"${name}" holds characters other than letters, digits and ._+@=-` };
		return { path: given, name };
	});
	const count = new Map<string, number>();
	for (const entry of named)
		if ('name' in entry) count.set(entry.name.toLowerCase(), (count.get(entry.name.toLowerCase()) ?? 0) + 1);
	return named.map((entry) =>
		'name' in entry && count.get(entry.name.toLowerCase())! > 1
			? { path: entry.path, refused: `another submission has the same name, "${entry.name}"` }
			: entry
	);
}
