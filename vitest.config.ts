import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { playAgainst } from './scripts/redirect.ts';

const solutions = fileURLToPath(new URL('./solutions/', import.meta.url));
const tests = ['exercises/[0-9]*/**/*.test.ts'];
// Exercise 06 asks it for a PostgreSQL, started on the first ask: a run of 01–05 never starts one.
const postgresOnDemand = ['exercises/shared/endpoint/postgres-on-demand.ts'];

export default defineConfig({
	test: {
		projects: [
			// The learner's files, as they are in exercises/. For a quick loop (scripts/bench/learner.ts): test files
			// share their workers' imports (no shared module keeps state, and the progress test holds every
			// exercise green this way), and transforms stay on disk between runs, keyed by each file's content.
			{
				test: {
					name: 'exercises',
					include: tests,
					isolate: false,
					experimental: { fsModuleCache: true },
					globalSetup: postgresOnDemand
				}
			},
			// The same tests, reading each learner file from solutions/ instead.
			{
				plugins: [playAgainst(solutions)],
				test: { name: 'solutions', include: tests, globalSetup: postgresOnDemand }
			},
			// The workbook's own machinery: schedule loading, the grader, the scripts.
			{
				test: {
					name: 'harness',
					include: [
						'exercises/shared/**/*.test.ts',
						'scripts/**/*.test.ts',
						'grader/**/*.test.ts',
						'form/**/*.test.ts'
					],
					// The grader's sample submissions hold a learner's edited test file: data, not the harness's tests.
					exclude: [...configDefaults.exclude, 'grader/samples/**']
				}
			}
		]
	}
});
