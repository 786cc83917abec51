// One Vitest project per wrong solution: its exercise's tests, reading the learner's files from solutions/,
// with the files its patch changes patched in memory (lib/redirect.ts). play-wrong.ts passes the ones whose
// patch applies; run by hand, this file plays them all:
//
//   npx vitest run --config tools/wrong/vitest.config.ts --project joined-identity
import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { postgresOnDemand, server } from '../../vitest.config.ts';
import { playAgainst } from '../../lib/redirect.ts';
import { solutionsDir, wrongSolutions, type WrongSolution } from '../../lib/wrong-solutions.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export function wrongSolutionsConfig(wrongs: WrongSolution[]): ViteUserConfig {
	return {
		root,
		test: {
			// One PostgreSQL for the whole run, started when the first of 06's wrong solutions asks for it.
			globalSetup: postgresOnDemand,
			projects: wrongs.map((wrong) => ({
				root,
				plugins: [playAgainst(solutionsDir, { patch: wrong })],
				test: { name: wrong.name, include: [`exercises/${wrong.folder}/**/*.test.ts`], server }
			}))
		}
	};
}

export default defineConfig(wrongSolutionsConfig(wrongSolutions()));
