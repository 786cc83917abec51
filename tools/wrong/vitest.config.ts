// One Vitest project per wrong solution: its exercise's tests, reading the learner's files from the wrong
// solution's folder first and from solutions/ for any file it does not get wrong.
import { defineConfig } from 'vitest/config';
import { postgresOnDemand, server } from '../../vitest.config.ts';
import { playAgainst } from '../../lib/redirect.ts';
import { solutionsDir, wrongSolutions } from './wrong-solutions.ts';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export default defineConfig({
	root,
	test: {
		// One PostgreSQL for the whole run, started when the first of 06's wrong solutions asks for it.
		globalSetup: postgresOnDemand,
		projects: wrongSolutions().map((wrong) => ({
			root,
			plugins: [playAgainst(wrong.dir, solutionsDir)],
			test: { name: wrong.name, include: [`exercises/${wrong.folder}/**/*.test.ts`], server }
		}))
	}
});
