// The wrong solutions: solutions/wrong/<mistake>.patch, each a solution with one mistake the lesson warns
// about, written as a diff against solutions/ under a header that says which test must catch it.
//
//   exercise: 02
//   mistake: replay forgets to compare the subject, so …
//   test: ReceiptHandler > the schedules, as receipt-in-commit > Same key, different request
//   says: Schedule "same-key-different-request"
//   says: expected refused (conflict), your handler replayed #1
//   lesson: the same key with another subject is another request, refused, never given an unrelated ticket
//   hint: 4
//
//   --- a/solutions/02-same-event/handler.ts
//   +++ b/solutions/02-same-event/handler.ts
//   @@ -15,7 +15,6 @@
//   …
//
// lesson and hint are optional: what the grader's diagnosis tells a learner whose answers match this mistake.
// `test` is the test's name below the exercise's heading, its describe blocks joined with ' > '; its
// failure message must hold every `says`, one line per snippet. The diff (lib/patch.ts) may only change
// the exercise's learner files. From the workbook's folder, `git apply solutions/wrong/<mistake>.patch`
// puts one in place to look at (`git apply -R` takes it back out).
//
//   wrongSolutions()                 every patch, its header checked: a slip names the file and the line
//   wrongSolution(name)              one of them
//   patchedFiles(wrong)              { 'handler.ts': text }: its files with the patch applied, in memory
//   writeWrongSolution(wrong, into)  those files as into/<NN-x>/<file>, for whoever needs them on disk
//
// Nothing is cached: a patch or a solution edited since is read as it is now.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { applyHunks, parsePatch, type Patch } from './patch.ts';

export type WrongSolution = {
	name: string;
	exercise: string;
	folder: string; // the exercise's folder, 02-same-event
	files: string[]; // the learner files it changes
	mistake: string;
	test: string;
	says: string[];
	// What the lesson says about this mistake, in the workbook's words, and the hint that leads away from it
	// ("npm run hint -- 04", hint 3): what the grader tells a learner whose answers match this mistake's.
	lesson?: string;
	hint?: number;
	path: string; // the patch file
	language: 'typescript' | 'go'; // go: a patch against go/solutions/, kept in go/solutions/wrong/
	// Go's: the package its test runs in, the exercise's: exercises/02-same-event.
	goPackage?: string;
};

export const solutionsDir = join(workbookRoot, 'solutions');
export const wrongDir = join(solutionsDir, 'wrong');
// Go's wrong solutions: patches against go/solutions/, with the same header (test: the Go test's name).
export const goWrongDir = join(workbookRoot, 'go', 'solutions', 'wrong');

export class WrongSolutionError extends Error {
	override name = 'WrongSolutionError';
}

const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/;
// A path as a message names it: from the workbook's folder when it is inside it.
const shown = (path: string) =>
	relative(workbookRoot, path).startsWith('..') ? path : relative(workbookRoot, path);

// Every wrong solution in dir, by exercise and then by name. Anything there but a <mistake>.patch is a slip.
export function wrongSolutions(dir = wrongDir): WrongSolution[] {
	return patchFiles(dir)
		.map((path) => readWrongSolution(path))
		.sort(byExercise);
}

// The order the wrong solutions are listed in: by exercise, then by name.
export const byExercise = (a: WrongSolution, b: WrongSolution) =>
	a.exercise.localeCompare(b.exercise) || a.name.localeCompare(b.name);

// The patch files in dir, checked by name only.
export function patchFiles(dir = wrongDir): string[] {
	return readdirSync(dir)
		.sort()
		.map((entry) => {
			const name = entry.replace(/\.patch$/, '');
			if (!entry.endsWith('.patch') || !kebab.test(name))
				throw new WrongSolutionError(
					`${shown(join(dir, entry))}: not a wrong solution; each is <mistake>.patch, its name in kebab-case`
				);
			return join(dir, entry);
		});
}

export function wrongSolution(name: string, dir = wrongDir): WrongSolution {
	const path = join(dir, `${name}.patch`);
	if (!kebab.test(name) || !patchFiles(dir).includes(path))
		throw new WrongSolutionError(`${shown(path)}: there is no such wrong solution`);
	return readWrongSolution(path);
}

// One patch: its header field by field, and which learner files its diff changes. A hunk that no longer
// applies is found by patchedFiles, not here.
export function readWrongSolution(path: string): WrongSolution {
	const file = shown(path);
	const patch = parsePatch(readFileSync(path, 'utf8'), file);
	const fields = headerFields(patch, file);
	const one = (key: string) => {
		const values = fields.get(key) ?? [];
		if (values.length !== 1)
			throw new WrongSolutionError(`${file}: the header needs one "${key}:" line, it has ${values.length}`);
		return values[0]!;
	};
	const optional = (key: string) => {
		const values = fields.get(key) ?? [];
		if (values.length > 1)
			throw new WrongSolutionError(`${file}: the header has ${values.length} "${key}:" lines; at most one`);
		return values[0] ?? null;
	};
	const says = fields.get('says') ?? [];
	if (says.length === 0)
		throw new WrongSolutionError(`${file}: the header needs a "says:" line, the words the failure must hold`);
	const exercise = exercises().find((e) => e.id === one('exercise'));
	if (!exercise)
		throw new WrongSolutionError(`${file}: no exercise "${one('exercise')}" in exercises/manifest.json`);
	const files = patch.files.map(({ path: changed, at }, i) => {
		const learnerFile = learnerFileOf(changed, exercise.folder);
		const learnerFiles = (changed.startsWith('go/') ? exercise.goLearnerFiles : exercise.learnerFiles) ?? [];
		if (!learnerFiles.includes(learnerFile))
			throw new WrongSolutionError(
				`${file}:${at}: "${changed}" is not a learner file of ${exercise.folder} (${learnerFiles.join(', ')})`
			);
		if (patch.files.findIndex((other) => other.path === changed) !== i)
			throw new WrongSolutionError(`${file}:${at}: "${changed}" again: one diff per file`);
		return learnerFile;
	});
	return {
		name: basename(path, '.patch'),
		exercise: exercise.id,
		folder: exercise.folder,
		files,
		mistake: one('mistake'),
		test: one('test'),
		says,
		lesson: optional('lesson') ?? undefined,
		hint: hintNumber(optional('hint'), file) ?? undefined,
		path,
		language: patch.files.every((changed) => changed.path.startsWith('go/')) ? 'go' : 'typescript',
		...(patch.files.every((changed) => changed.path.startsWith('go/'))
			? { goPackage: `exercises/${exercise.folder}` }
			: {})
	};
}

function hintNumber(value: string | null, file: string): number | null {
	if (value === null) return null;
	if (!/^[1-9][0-9]*$/.test(value))
		throw new WrongSolutionError(
			`${file}: "hint:" is the number of a hint in the exercise's hints.md, not "${value}"`
		);
	return Number(value);
}

// solutions/02-same-event/handler.ts is 02's handler.ts, and go/solutions/02-same-event/handler.go its
// handler.go; a path outside the exercise's folder is no learner file.
const learnerFileOf = (path: string, folder: string) => {
	const prefix = [`solutions/${folder}/`, `go/solutions/${folder}/`].find((start) => path.startsWith(start));
	return prefix ? path.slice(prefix.length) : path;
};

// The header's `key: value` lines; blank lines are left out, and any other line is a slip.
function headerFields(patch: Patch, file: string): Map<string, string[]> {
	const fields = new Map<string, string[]>();
	for (const { line, text } of patch.header) {
		if (text.trim() === '') continue;
		const field = /^(exercise|mistake|test|says|lesson|hint): (.*\S)\s*$/.exec(text);
		if (!field)
			throw new WrongSolutionError(
				`${file}:${line}: not a header line: ${JSON.stringify(text)} (each is "exercise:", "mistake:", "test:", "says:", "lesson:" or "hint:" and its words)`
			);
		fields.set(field[1]!, [...(fields.get(field[1]!) ?? []), field[2]!]);
	}
	return fields;
}

// The files the patch changes, as the solution's text with its hunks applied. Throws a PatchError naming the
// patch, the hunk and the line when one does not apply.
export function patchedFiles(wrong: WrongSolution): Record<string, string> {
	const file = shown(wrong.path);
	const patch = parsePatch(readFileSync(wrong.path, 'utf8'), file);
	return Object.fromEntries(
		patch.files.map((changed) => [
			learnerFileOf(changed.path, wrong.folder),
			applyHunks(readFileSync(join(workbookRoot, changed.path), 'utf8'), changed, file)
		])
	);
}

// Writes the patched files as into/<NN-x>/<file> (into is an exercises/ folder, or one like it), and says which.
export function writeWrongSolution(wrong: WrongSolution, into: string): string[] {
	return Object.entries(patchedFiles(wrong)).map(([name, text]) => {
		const path = join(into, wrong.folder, name);
		mkdirSync(join(path, '..'), { recursive: true });
		writeFileSync(path, text);
		return path;
	});
}
