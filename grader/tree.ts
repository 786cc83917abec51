// A fresh tree per submission: the grader's pristine stubs, overwritten by the learner files it took.
import {
	copyFileSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Exercise } from '#shared/manifest.ts';
import { root } from './paths.ts';
import { hashFiles } from './submission.ts';

export type Tree = { dir: string; files: Map<string, string> };

// The files an exercise is graded on, as they stand in the tree (the learner's, else the pristine stub's).
export function treeFiles(exercises: Exercise[], taken: Map<string, string>): Map<string, string> {
	const files = new Map<string, string>();
	for (const exercise of exercises) {
		for (const file of exercise.learnerFiles) {
			const path = `${exercise.folder}/${file}`;
			files.set(path, taken.get(path) ?? readFileSync(join(root, 'exercises', path), 'utf8'));
		}
	}
	return files;
}

// Everything the tests read comes from the grader's checkout; only these files come from the learner.
// package.json gives #shared/… its meaning; exercises/shared is a link to the grader's own harness.
export function makeTree(label: string, files: Map<string, string>): Tree {
	const dir = mkdtempSync(join(tmpdir(), `grade-${label.replace(/[^\w-]/g, '_').slice(0, 40)}-`));
	copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
	mkdirSync(join(dir, 'exercises'));
	symlinkSync(join(root, 'exercises', 'shared'), join(dir, 'exercises', 'shared'), 'dir');
	for (const [path, content] of files) {
		const target = join(dir, 'exercises', path);
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, content);
	}
	return { dir, files };
}

export function removeTree(tree: Tree): void {
	rmSync(tree.dir, { recursive: true, force: true });
}

// Two runs of one exercise on the same files give the same result (the seed is fixed), so they share one run.
export function exerciseKey(exercise: Exercise, files: Map<string, string>): string {
	const own = new Map([...files].filter(([path]) => path.startsWith(`${exercise.folder}/`)));
	return `${exercise.folder}:${hashFiles(own)}`;
}
