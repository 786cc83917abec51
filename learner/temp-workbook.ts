// A throwaway copy of the workbook for the learner commands' tests, so they never touch the real exercises.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { shippedCopy } from './reset.ts';

const copied = [
	'exercises',
	'solutions',
	'schedules',
	'harness',
	'learner',
	'lib',
	'tools',
	'package.json',
	'vitest.config.ts',
	'tsconfig.json'
];

// Every learner file starts as shipped (from their shipped copies), whatever state the real tree is in. `under`
// names the folder it is copied into (a learner's may have spaces and letters such as é in it).
export function tempWorkbook(under = ''): { root: string; remove: () => void } {
	const parent = under ? mkdtempSync(join(tmpdir(), `${under}-`)) : tmpdir();
	const root = mkdtempSync(join(parent, 'workbook-'));
	const removed = under ? parent : root;
	for (const entry of copied) cpSync(join(workbookRoot, entry), join(root, entry), { recursive: true });
	symlinkSync(join(workbookRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
	for (const exercise of exercises(root)) {
		for (const file of exercise.learnerFiles) {
			cpSync(join(root, shippedCopy(exercise.folder, file)), join(root, 'exercises', exercise.folder, file));
		}
	}
	return { root, remove: () => rmSync(removed, { recursive: true, force: true }) };
}

// Copies the workbook's solution over one exercise's learner files, as a learner who solved it would have.
export function solve(root: string, folder: string, files: string[]): void {
	for (const file of files)
		cpSync(join(root, 'solutions', folder, file), join(root, 'exercises', folder, file));
}

// Durations are the only words a run may change; Vitest's own report prints test files as they end, in any order.
export const words = (output: string, inAnyOrder: boolean) => {
	const lines = output
		.replace(/\d+(\.\d+)? ?m?s\b/g, 'T')
		.split('\n')
		.filter((line) => !/^\s*(Start at|Duration)\b/.test(line));
	return (inAnyOrder ? lines.sort() : lines).join('\n');
};
