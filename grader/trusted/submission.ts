// Reads a learner's submission: only the files the manifest allows, and a list of everything it ignored; then,
// per exercise, the files it is graded on (the learner's, else the stub's) and the key identical runs share.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';
import { root } from '../sandbox/paths.ts';
import { lookAt, takeFile } from './unpack.ts';

// A learner file larger than this is not a handler; it is not taken.
export const maxLearnerFile = 256 * 1024;
// Named once, never walked: what a checkout grows, and the grader's own folders, which it never compares.
const skippedFolders = new Set(['node_modules', '.git', 'solutions', 'grader']);
const maxWalk = 20_000;
const maxDepth = 24;

export type Submission = {
	name: string;
	path: string;
	// Why nothing can be graded (an empty folder, a file, a folder that is not a workbook), or null.
	notAWorkbook: string | null;
	// The learner files taken, by path under exercises/ ("01-first-handler/handler.ts").
	files: Map<string, string>;
	// The Go learner files taken that differ from the shipped stubs, by path under go/exercises/
	// ("01-first-handler/handler.go"): an exercise with one is graded in Go (see language.ts).
	goFiles: Map<string, string>;
	missing: string[];
	// Learner files found but not taken, with the reason.
	refused: string[];
	// Other files that differ from the grader's copy or that it does not have: not graded, only reported.
	ignored: string[];
	// A hash of the files taken, so a grade names exactly what it graded.
	hash: string;
};

export function learnerPaths(exercises: Exercise[]): string[] {
	return exercises.flatMap((exercise) => exercise.learnerFiles.map((file) => `${exercise.folder}/${file}`));
}

export function goLearnerPaths(exercises: Exercise[]): string[] {
	return exercises.flatMap((exercise) =>
		(exercise.goLearnerFiles ?? []).map((file) => `${exercise.folder}/${file}`)
	);
}

export function hashFiles(files: Map<string, string>): string {
	const hash = createHash('sha256');
	for (const [path, content] of [...files].sort(([a], [b]) => a.localeCompare(b)))
		hash.update(`${path}\0${content}\0`);
	return hash.digest('hex').slice(0, 16);
}

// A learner's copy of the workbook, or just its exercises/ folder ("exercises" or "" under the submission).
function exercisesFolder(path: string, exercises: Exercise[]): string | null {
	const { stats, refused } = lookAt(path, 'exercises');
	if (stats?.isDirectory() && !refused) return 'exercises';
	const folders = new Set(exercises.map((exercise) => exercise.folder));
	const anExercise = readdirSync(path, { withFileTypes: true }).some(
		(entry) => folders.has(entry.name) && entry.isDirectory()
	);
	return anExercise ? '' : null;
}

export function readSubmission(path: string, exercises: Exercise[], name = basename(path)): Submission {
	const submission: Submission = {
		name,
		path,
		notAWorkbook: null,
		files: new Map(),
		goFiles: new Map(),
		missing: [],
		refused: [],
		ignored: [],
		hash: hashFiles(new Map())
	};
	// The submission's own folder is looked at without following it: a link to solutions/ is not a submission.
	const stats = lstatOrNull(path);
	if (!stats || !stats.isDirectory()) {
		submission.notAWorkbook = stats?.isSymbolicLink()
			? 'the submission is a symbolic link, not a folder'
			: 'the submission is not a folder';
		return submission;
	}
	const linked = lookAt(path, 'exercises').refused;
	if (linked) {
		submission.notAWorkbook = `${linked}: only real folders and regular files are taken`;
		return submission;
	}
	// A copy with only the Go track's folder is a workbook too (its TypeScript files are then not submitted).
	const goOnly = lookAt(path, 'go/exercises');
	const folder =
		exercisesFolder(path, exercises) ?? (goOnly.stats?.isDirectory() && !goOnly.refused ? 'exercises' : null);
	if (folder === null) {
		const empty = readdirSync(path).length === 0;
		submission.notAWorkbook = empty
			? 'the folder is empty'
			: 'not a workbook: no exercises/ folder and no exercise folders (NN-name)';
		submission.ignored = walk(path).map((file) => `${file} (not a workbook)`);
		return submission;
	}
	for (const learnerPath of learnerPaths(exercises)) {
		const shown = folder ? `${folder}/${learnerPath}` : learnerPath;
		const taken = takeFile(path, shown, maxLearnerFile);
		if (!taken) submission.missing.push(shown);
		else if (taken.refused !== null) submission.refused.push(`${shown} (${taken.refused})`);
		else submission.files.set(learnerPath, taken.content);
	}
	// Go's learner files, only in a whole copy (go/ beside exercises/), and only those the learner changed.
	for (const goPath of folder === 'exercises' ? goLearnerPaths(exercises) : []) {
		const shown = `go/exercises/${goPath}`;
		const taken = takeFile(path, shown, maxLearnerFile);
		if (!taken) continue;
		if (taken.refused !== null) submission.refused.push(`${shown} (${taken.refused})`);
		else if (taken.content !== readOrNull(join(root, shown))) submission.goFiles.set(goPath, taken.content);
	}
	submission.hash = hashFiles(
		new Map([...submission.files, ...[...submission.goFiles].map(([p, c]) => [`go/${p}`, c] as const)])
	);
	const taken = new Set([
		...learnerPaths(exercises),
		...goLearnerPaths(exercises).map((p) => `go/exercises/${p}`)
	]);
	submission.ignored = ignoredFiles(path, folder, taken);
	return submission;
}

function readOrNull(path: string): string | null {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return null;
	}
}

function lstatOrNull(path: string) {
	try {
		return lstatSync(path);
	} catch {
		return null;
	}
}

// Files the grader does not take: said when they differ from its own copy or it has none; same ones are silent.
function ignoredFiles(path: string, folder: string, learner: Set<string>): string[] {
	const underRoot = folder === '' ? 'exercises' : '';
	return walk(path).flatMap((file) => {
		if (file.endsWith('/')) return [`${file} (skipped)`];
		const inExercises =
			folder === '' ? file : file.startsWith('exercises/') ? file.slice('exercises/'.length) : null;
		if (inExercises !== null && learner.has(inExercises)) return [];
		if (learner.has(file)) return [];
		const pristine = join(root, underRoot, file);
		if (!existsSync(pristine)) return [`${file} (not in the workbook)`];
		const theirs = takeFile(path, file, maxLearnerFile);
		if (!theirs || theirs.refused !== null) return [`${file} (${theirs?.refused ?? 'unreadable'})`];
		return readFileSync(pristine, 'utf8') === theirs.content ? [] : [`${file} (edited)`];
	});
}

// Every entry under a folder, relative to it with "/"; links, FIFOs and devices are listed, never followed or
// opened; node_modules/ and .git/ are named once, not walked.
function walk(path: string): string[] {
	const found: string[] = [];
	let seen = 0;
	const visit = (dir: string, depth: number) => {
		for (const entry of readdirSync(join(path, dir), { withFileTypes: true }).sort((a, b) =>
			a.name.localeCompare(b.name)
		)) {
			// Every entry counts, folders too, and the walk goes only so deep: no submission can make it endless.
			if (++seen > maxWalk || found.length >= maxWalk) return;
			const inside = dir ? `${dir}/${entry.name}` : entry.name;
			if (entry.isDirectory() && (skippedFolders.has(entry.name) || depth >= maxDepth))
				found.push(`${inside}/`);
			else if (entry.isDirectory()) visit(inside, depth + 1);
			else found.push(inside);
		}
	};
	visit('', 0);
	return found;
}

// The files an exercise is graded on: the learner's where it sent them, else the pristine stub's.
export function exerciseFiles(exercise: Exercise, taken: Map<string, string>): Map<string, string> {
	return new Map(
		exercise.learnerFiles.map((file) => {
			const path = `${exercise.folder}/${file}`;
			return [path, taken.get(path) ?? readFileSync(join(root, 'exercises', path), 'utf8')];
		})
	);
}

// Two runs of one exercise on the same files and the same inputs give the same observations.
export const exerciseKey = (exercise: Exercise, files: Map<string, string>) =>
	`${exercise.folder}:${hashFiles(files)}`;
