// A Vite plugin that plays the exercises' tests against another copy of the learner's files.
// Used for solutions/ (the maintainers' check), the wrong solutions, mutation testing, the playground tests.
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const exercisesDir = fileURLToPath(new URL('../exercises/', import.meta.url));

// exercises/NN-x/file.ts is read from <folder>/NN-x/file.ts when that file exists there. With more than one
// folder, the first that has the file wins: a wrong solution can hold only the file it gets wrong.
export function playAgainst(...folders: string[]): Plugin {
	return {
		name: 'play-against',
		enforce: 'pre',
		async resolveId(source, importer, options) {
			if (!importer || !source.startsWith('.')) return null;
			const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
			if (!resolved) return null;
			const inside = relative(exercisesDir, resolved.id);
			if (inside.startsWith('..') || inside.startsWith(`shared${sep}`)) return null;
			const replacement = folders.map((folder) => join(folder, inside)).find((file) => existsSync(file));
			return replacement ?? null;
		}
	};
}
