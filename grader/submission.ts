// Reads a learner's submission: only the files the manifest allows, and a list of everything it ignored.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Exercise } from '#shared/manifest.ts';
import { root } from './paths.ts';

// A learner file larger than this is not a handler; it is not taken.
export const maxLearnerFile = 256 * 1024;
const skippedFolders = new Set(['node_modules', '.git']);
const maxWalk = 20_000;

export type Submission = {
	name: string;
	path: string;
	// Why nothing can be graded (an empty folder, a file, a folder that is not a workbook), or null.
	notAWorkbook: string | null;
	// The learner files taken, by path under exercises/ ("01-first-handler/handler.ts").
	files: Map<string, string>;
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

export function hashFiles(files: Map<string, string>): string {
	const hash = createHash('sha256');
	for (const [path, content] of [...files].sort(([a], [b]) => a.localeCompare(b)))
		hash.update(`${path}\0${content}\0`);
	return hash.digest('hex').slice(0, 16);
}

// A learner's copy of the workbook, or just its exercises/ folder.
function exercisesFolder(path: string): string | null {
	if (existsSync(join(path, 'exercises')) && statSync(join(path, 'exercises')).isDirectory())
		return join(path, 'exercises');
	const numbered = readdirSync(path).some(
		(name) => /^\d\d-/.test(name) && statSync(join(path, name)).isDirectory()
	);
	return numbered ? path : null;
}

export function readSubmission(path: string, exercises: Exercise[], name = basename(path)): Submission {
	const submission: Submission = {
		name,
		path,
		notAWorkbook: null,
		files: new Map(),
		missing: [],
		refused: [],
		ignored: [],
		hash: hashFiles(new Map())
	};
	if (!existsSync(path) || !statSync(path).isDirectory()) {
		submission.notAWorkbook = `${path} is not a folder`;
		return submission;
	}
	const folder = exercisesFolder(path);
	if (!folder) {
		const empty = readdirSync(path).length === 0;
		submission.notAWorkbook = empty
			? 'the folder is empty'
			: 'not a workbook: no exercises/ folder and no exercise folders (NN-name)';
		submission.ignored = walk(path).map((file) => `${file} (not a workbook)`);
		return submission;
	}
	for (const learnerPath of learnerPaths(exercises)) {
		const file = join(folder, learnerPath);
		const shown = relative(path, file);
		if (!existsSync(file) && !isLink(file)) submission.missing.push(shown);
		else if (isLink(file))
			submission.refused.push(`${shown} (a symbolic link: only regular files are taken)`);
		else if (!lstatSync(file).isFile()) submission.refused.push(`${shown} (not a regular file)`);
		else if (lstatSync(file).size > maxLearnerFile)
			submission.refused.push(`${shown} (larger than ${maxLearnerFile / 1024} KB)`);
		else submission.files.set(learnerPath, readFileSync(file, 'utf8'));
	}
	submission.hash = hashFiles(submission.files);
	submission.ignored = ignoredFiles(path, folder, new Set(learnerPaths(exercises)));
	return submission;
}

function isLink(file: string): boolean {
	try {
		return lstatSync(file).isSymbolicLink();
	} catch {
		return false;
	}
}

// Files the grader does not take: said when they differ from its own copy or it has none; same ones are silent.
function ignoredFiles(path: string, folder: string, learner: Set<string>): string[] {
	const underRoot = folder === path ? 'exercises' : '';
	return walk(path).flatMap((file) => {
		if (file.endsWith(`${sep}`)) return [`${file} (skipped)`];
		const inExercises = relative(folder, join(path, file));
		if (!inExercises.startsWith('..') && learner.has(inExercises.split(sep).join('/'))) return [];
		const pristine = join(root, underRoot, file);
		if (!existsSync(pristine)) return [`${file} (not in the workbook)`];
		try {
			const same = readFileSync(pristine).equals(readFileSync(join(path, file)));
			return same ? [] : [`${file} (edited)`];
		} catch {
			return [`${file} (unreadable)`];
		}
	});
}

// Every file under a folder, relative to it; node_modules/ and .git/ are named once, not walked.
function walk(path: string): string[] {
	const found: string[] = [];
	const visit = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
			a.name.localeCompare(b.name)
		)) {
			if (found.length >= maxWalk) return;
			const full = join(dir, entry.name);
			if (entry.isDirectory() && skippedFolders.has(entry.name)) found.push(`${relative(path, full)}${sep}`);
			else if (entry.isDirectory()) visit(full);
			else found.push(relative(path, full));
		}
	};
	visit(path);
	return found;
}
