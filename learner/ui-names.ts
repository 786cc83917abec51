// The names the Vitest UI shows, as the learner's workbook has them: each step file (ui-steps.ts) by the exercise
// test file it runs, "exercises/01-first-handler/handler.test.ts", and each line of a stack by its path from the
// workbook's folder, "harness/handler/play.ts:167:10", never where the workbook lies on this machine.
//
//   plugins: [namesFromTheWorkbook(workbook)], test: { onStackTrace: pathFromTheWorkbook(workbook) }
//
// The UI sorts its tree by each file's path (the step files' order) and shows each file's name, which Vitest makes
// from the path; the plugin renames each file as Vitest's state takes it in, both the placeholder a run starts
// with and the file its worker collected, so the first page, the live updates and a page opened mid-run agree.
// The ids stay Vitest's own, made from the step file's path.
import { isAbsolute, relative, sep } from 'node:path';
import type { ParsedStack } from 'vitest';
import type { Plugin } from 'vitest/config';
import type { RunnerTestFile } from 'vitest/node';
import { shownNames } from './ui-steps.ts';

export function namesFromTheWorkbook(workbook: string): Plugin {
	return {
		name: 'names-from-the-workbook',
		configureVitest({ vitest }) {
			const names = shownNames(workbook);
			const rename = (file: RunnerTestFile) => {
				const name = names.get(file.filepath);
				if (name) file.name = file.fullName = name;
			};
			const { state } = vitest;
			const collectFiles = state.collectFiles.bind(state);
			state.collectFiles = (project, files = []) => {
				files.forEach(rename);
				collectFiles(project, files);
			};
			const clearFiles = state.clearFiles.bind(state);
			state.clearFiles = (project, paths = []) => {
				clearFiles(project, paths);
				for (const path of paths) state.filesMap.get(path)?.forEach(rename);
			};
		}
	};
}

// Vitest's stack filter, used to rename instead: each frame keeps its place, with a path from the workbook's
// folder for a file inside it (the UI's "open in editor" resolves that from the same folder), and the error's
// message loses the workbook's folder (workbook ends with the separator).
export function pathFromTheWorkbook(workbook: string) {
	const names = shownNames(workbook);
	return (error: { message?: unknown }, frame: ParsedStack): boolean => {
		// A message may name a file too ("Cannot find module … imported from /home/…/exercises/…").
		if (typeof error.message === 'string') error.message = error.message.split(workbook).join('');
		const inside = relative(workbook, frame.file);
		if (!isAbsolute(inside) && !inside.startsWith(`..${sep}`) && inside !== '..')
			frame.file = names.get(frame.file) ?? inside.split(sep).join('/');
		return true;
	};
}
