// A strict reader and applier of unified diffs (`diff -u`, `git diff`), for the wrong solutions' patches.
//
//   const { header, files } = parsePatch(text, 'solutions/wrong/x.patch');
//   header;                                    // the lines before the diff, each with its line number
//   applyHunks(original, files[0]!, 'solutions/wrong/x.patch');   // the file's text with the patch applied
//
// Strict, so a patch that has gone stale says so instead of doing something else: every hunk applies at
// the line its header names, its context and removed lines must match that file's lines exactly, and the
// counts in its header must match its body. No fuzz, no offsets, no new or deleted files. A `diff --git` or
// `index` line before a file's `---` is allowed, so `git diff` output can be pasted as it is. Any problem
// throws a PatchError naming the patch file and line, the hunk, and the line of the file it disagrees with.
export class PatchError extends Error {
	override name = 'PatchError';
}

export type Hunk = {
	title: string; // "@@ -24,7 +20,7 @@", as the patch writes it
	at: number; // its line in the patch file
	oldStart: number;
	oldCount: number;
	newStart: number;
	newCount: number;
	lines: string[]; // each starts with ' ', '-' or '+'
};
export type FilePatch = { path: string; at: number; hunks: Hunk[] };
export type Patch = { header: { line: number; text: string }[]; files: FilePatch[] };

const hunkTitle = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const fileStart = /^(diff --git |--- )/;

// The patch's lines, read one at a time; a problem names the patch and the line.
type Reader = { lines: string[]; i: number; fail: (problem: string) => never };

export function parsePatch(text: string, name: string): Patch {
	const lines = text.split('\n');
	if (lines.at(-1) === '') lines.pop();
	const reader: Reader = {
		lines,
		i: 0,
		fail: (problem) => {
			throw new PatchError(`${name}:${reader.i + 1}: ${problem}`);
		}
	};
	const header: Patch['header'] = [];
	while (reader.i < lines.length && !fileStart.test(lines[reader.i]!))
		header.push({ line: reader.i + 1, text: lines[reader.i++]! });
	const files: FilePatch[] = [];
	while (reader.i < lines.length) files.push(readFile(reader));
	if (files.length === 0) reader.fail('no diff: expected "--- a/<path>" after the header');
	return { header, files };
}

function readFile(reader: Reader): FilePatch {
	const { lines } = reader;
	while (/^(diff --git |index )/.test(lines[reader.i] ?? '')) reader.i++;
	const from = /^--- a\/(\S+)$/.exec(lines[reader.i] ?? '')?.[1];
	const to = /^\+\+\+ b\/(\S+)$/.exec(lines[reader.i + 1] ?? '')?.[1];
	if (!from || !to)
		reader.fail(
			`expected a file's "--- a/<path>" and "+++ b/<path>", found ${JSON.stringify(lines[reader.i])}`
		);
	if (from !== to) reader.fail(`"${from}" and "${to}": a patch here changes a file, it never renames one`);
	const file: FilePatch = { path: from!, at: reader.i + 1, hunks: [] };
	reader.i += 2;
	while (lines[reader.i]?.startsWith('@@')) file.hunks.push(readHunk(reader));
	if (file.hunks.length === 0) reader.fail(`"${file.path}" has no hunk`);
	if (reader.i < lines.length && !fileStart.test(lines[reader.i]!))
		reader.fail(`not a line of a hunk: ${JSON.stringify(lines[reader.i])}`);
	return file;
}

function readHunk(reader: Reader): Hunk {
	const title = hunkTitle.exec(reader.lines[reader.i]!);
	if (!title) return reader.fail(`not a hunk's header: ${JSON.stringify(reader.lines[reader.i])}`);
	const [, oldStart, oldCount = '1', newStart, newCount = '1'] = title;
	const hunk: Hunk = {
		title: title[0],
		at: reader.i + 1,
		oldStart: Number(oldStart),
		oldCount: Number(oldCount),
		newStart: Number(newStart),
		newCount: Number(newCount),
		lines: []
	};
	reader.i++;
	let olds = 0;
	let news = 0;
	while (olds < hunk.oldCount || news < hunk.newCount) {
		// An empty line is a blank context line whose one space an editor took away.
		const line = reader.lines[reader.i] === '' ? ' ' : reader.lines[reader.i];
		if (line === undefined || !/^[ +-]/.test(line))
			reader.fail(
				`hunk ${hunk.title} ends early: its header counts ${hunk.oldCount} old and ${hunk.newCount} new lines, its body ${olds} and ${news}`
			);
		if (line![0] !== '+') olds++;
		if (line![0] !== '-') news++;
		if (olds > hunk.oldCount || news > hunk.newCount)
			reader.fail(`hunk ${hunk.title} is longer than its header says: ${olds} old and ${news} new lines`);
		hunk.lines.push(line!);
		reader.i++;
	}
	return hunk;
}

// The original text with every hunk of one file applied, in order, each exactly where its header says.
export function applyHunks(original: string, file: FilePatch, name: string): string {
	const source = original.split('\n');
	const result: string[] = [];
	let next = 0; // the index in source of the first line not yet copied
	file.hunks.forEach((hunk, h) => {
		const where = `${name}:${hunk.at}: hunk ${h + 1} (${hunk.title}) does not apply to ${file.path}`;
		// A hunk that removes or keeps nothing is placed after its start line, not at it.
		const start = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1;
		if (start < next) throw new PatchError(`${where}: it starts inside the hunk before it`);
		result.push(...source.slice(next, start));
		const newStart = hunk.newCount === 0 ? result.length : result.length + 1;
		if (hunk.newStart !== newStart)
			throw new PatchError(
				`${where}: its header puts the new lines at ${hunk.newStart}, but they land at ${newStart}`
			);
		let at = start;
		for (const line of hunk.lines) {
			const text = line.slice(1);
			if (line[0] !== '+') {
				const found = source[at];
				if (found !== text) {
					const is =
						found === undefined ? 'past the end of the file' : `line ${at + 1} is ${JSON.stringify(found)}`;
					throw new PatchError(`${where}: ${is}, the hunk expects ${JSON.stringify(text)}`);
				}
				at++;
			}
			if (line[0] !== '-') result.push(text);
		}
		next = at;
	});
	result.push(...source.slice(next));
	return result.join('\n');
}
