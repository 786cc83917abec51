// The Vitest config the grader runs, once per exercise per submission, from its own pristine checkout.
// GRADE_TREE names the fresh tree of learner files; GRADE_EXERCISE the one exercise folder to run.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { playAgainst } from '../scripts/redirect.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const tree = process.env.GRADE_TREE;
const folder = process.env.GRADE_EXERCISE;
if (!tree || !folder) throw new Error('grader/vitest.grade.config.ts needs GRADE_TREE and GRADE_EXERCISE');

export default defineConfig({
	root,
	// Each run its own cache folder: two runs on one tree never write the same files.
	cacheDir: join(tree, '.vite', String(process.pid)),
	plugins: [playAgainst(join(tree, 'exercises'))],
	test: {
		include: [`exercises/${folder}/**/*.test.ts`, `grader/held-out/${folder}.held.ts`],
		// One worker per run, its test files one after another sharing imports: the process is the sandbox.
		pool: 'forks',
		isolate: false,
		maxWorkers: 1,
		fileParallelism: false,
		watch: false,
		// Exercise 06 asks it for a PostgreSQL (started on the first ask); the other exercises never do.
		globalSetup: ['exercises/shared/endpoint/postgres-on-demand.ts']
	}
});
