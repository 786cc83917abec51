// A Vite plugin that plays the exercises' tests against another copy of the learner's files.
// Used for solutions/ (the maintainers' check), for the wrong solutions, and by the playground.
//
//   playAgainst(solutionsDir)                       exercises/NN-x/file.ts is read from solutions/NN-x/file.ts
//   playAgainst([planted, shipped])                 from the first of these folders that has the file
//   playAgainst(solutionsDir, { patch: wrong })     the files a wrong solution changes are its patched text
//
// A patched file is served from memory under the solution's path with `?wrong=<name>` after it, so it never
// stands in for the solution itself (the playground imports both), and a stack trace names the mistake.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { patchedFiles, solutionsDir, type WrongSolution } from './wrong-solutions.ts';

export const exercisesDir = fileURLToPath(new URL('../exercises/', import.meta.url));

export type PlayOptions = { patch?: WrongSolution };

// Where a wrong solution's file is served: solutions/02-same-event/handler.ts?wrong=joined-identity.
export function wrongId(wrong: WrongSolution, file: string): string {
	return `${join(solutionsDir, wrong.folder, file)}?wrong=${wrong.name}`;
}

// The patched text for an id from wrongId, or null for any other id. Watched, so an edit shows.
export function loadWrong(
	wrong: WrongSolution,
	id: string,
	watch: (file: string) => void = () => {}
): string | null {
	const file = wrong.files.find((name) => wrongId(wrong, name) === id);
	if (file === undefined) return null;
	watch(wrong.path);
	watch(join(solutionsDir, wrong.folder, file));
	return patchedFiles(wrong)[file]!;
}

export function playAgainst(folders: string | string[], { patch }: PlayOptions = {}): Plugin {
	const from = typeof folders === 'string' ? [folders] : folders;
	return {
		name: 'play-against',
		enforce: 'pre',
		async resolveId(source, importer, options) {
			if (!importer || !source.startsWith('.')) return null;
			const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
			if (!resolved) return null;
			const inside = relative(exercisesDir, resolved.id);
			if (inside.startsWith('..')) return null;
			const patched = patch?.files.find((file) => join(patch.folder, file) === inside);
			if (patch && patched !== undefined) return wrongId(patch, patched);
			return from.map((folder) => join(folder, inside)).find((file) => existsSync(file)) ?? null;
		},
		load(id) {
			return patch ? loadWrong(patch, id, (file) => this.addWatchFile(file)) : null;
		}
	};
}
