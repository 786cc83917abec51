// Learners' names, from their folders: unique, stable, and safe to use as a folder under --out.
//
//   learnerNames(['/class/a/alice', '/class/b/alice'])   // names "a/alice" → "a~alice", "b~alice"
//   learnerNames(['/class/Ann Lee', '/class/=2+5'])       // "Ann_Lee-1f3a9c0d", "=2+5"
//
// A name is the submission's path relative to the class folder (the folder all submissions share), with "/"
// written "~", so two folders with the same last name never meet. Real class exports name folders with
// spaces, quotes, even newlines: such a name is never refused. Every character other than letters, digits and
// ._+@=- becomes "_", a leading "." becomes "_.", and a name that had to change (or that is one the grader
// writes its own output under, class.csv…, or that differs from another only in case) gets "-" and eight hex
// digits of a hash of its path: unique, and the same on every run. Refused, with the reason, only what is no
// learner's folder: the class folder itself or above it (".", ".."), a path that ends in "." or "..", one that
// holds another submission, and the same folder given twice.
import { createHash } from 'node:crypto';
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
	const relative: string[] = [];
	const named: Named[] = resolved.map((path, i) => {
		const inside = path.startsWith(base === sep ? sep : `${base}${sep}`)
			? path.slice(base.length).replace(/^[\\/]+/, '')
			: '';
		relative[i] = inside;
		const name = inside.split(sep).join('~');
		const given = paths[i]!;
		if (/(^|[\\/])\.{1,2}[\\/]*$/.test(given)) return { path: given, refused: 'its path ends in . or ..' };
		if (resolved.some((other) => other.startsWith(`${path}${sep}`)))
			return { path: given, refused: 'it holds other submissions' };
		if (!name) return { path: given, refused: 'its path is the class folder itself, or outside it' };
		return { path: given, name };
	});
	const count = new Map<string, number>();
	for (const entry of named)
		if ('name' in entry) count.set(entry.name.toLowerCase(), (count.get(entry.name.toLowerCase()) ?? 0) + 1);
	const twice = new Set(resolved.filter((path, i) => resolved.indexOf(path) !== i));
	const first: Named[] = named.map((entry, i) => {
		if (!('name' in entry)) return entry;
		if (twice.has(resolved[i]!)) return { path: entry.path, refused: `the same folder is given twice` };
		return {
			path: entry.path,
			name: safeName(entry.name, relative[i]!, count.get(entry.name.toLowerCase())! > 1)
		};
	});
	// A folder may be named like another's changed name ("Ann_Lee-1f3a9c0d"): that one is changed too.
	let taken = timesTaken(first);
	let result = first.map((entry, i) =>
		'name' in entry &&
		taken.get(entry.name.toLowerCase())! > 1 &&
		entry.name === (named[i] as { name: string }).name
			? { path: entry.path, name: safeName(entry.name, relative[i]!, true) }
			: entry
	);
	// Eight hex digits are 32 bits: two folders whose names change alike can be made to meet on them too (a pair
	// among some 100,000 tries). Every name that still meets another gets a longer suffix, until none does.
	for (const digits of [16, 64]) {
		taken = timesTaken(result);
		result = result.map((entry, i) =>
			'name' in entry && taken.get(entry.name.toLowerCase())! > 1
				? {
						path: entry.path,
						name: safeName((named[i] as { name: string }).name, relative[i]!, true, digits)
					}
				: entry
		);
	}
	return result;
}

function timesTaken(entries: Named[]): Map<string, number> {
	const taken = new Map<string, number>();
	for (const entry of entries)
		if ('name' in entry) taken.set(entry.name.toLowerCase(), (taken.get(entry.name.toLowerCase()) ?? 0) + 1);
	return taken;
}

const maxNameLength = 100;
// A folder's name holds 255 bytes at most (ext4, tmpfs, most file systems), and the suffix takes up to 65: the
// rest is cut at a whole character, so a name of letters that take three bytes each (CJK) still gets a folder.
const maxNameBytes = 180;
function cutToBytes(text: string, bytes: number): string {
	let used = 0;
	let end = 0;
	for (const char of text) {
		used += Buffer.byteLength(char);
		if (used > bytes) break;
		end += char.length;
	}
	return text.slice(0, end);
}

// The name as a folder and a cell can hold it; with a stable suffix when it had to change or meets another.
// `path` (relative to the class folder) is what the suffix is a hash of: two folders never share one.
// digits: how much of the hash the suffix holds (more where eight met another's).
export function safeName(name: string, path: string, shared = false, digits = 8): string {
	const safe = cutToBytes(
		name
			.normalize('NFC')
			.replace(/[^\p{L}\p{N}_.+@=~-]/gu, '_')
			.replace(/(^|~)\./g, '$1_.')
			.slice(0, maxNameLength),
		maxNameBytes
	);
	if (safe === name && !shared && !outputNames.includes(name.toLowerCase())) return name;
	return `${safe}-${createHash('sha256').update(path).digest('hex').slice(0, digits)}`;
}
