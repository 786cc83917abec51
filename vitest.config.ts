import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { playAgainst } from './lib/redirect.ts';

const solutions = fileURLToPath(new URL('./solutions/', import.meta.url));
const tests = ['exercises/[0-9]*/**/*.test.ts'];
// The exercises whose code talks to the shared database, and how their tests find a PostgreSQL.
const onPostgres = ['exercises/03-*/**/*.test.ts', 'exercises/05-*/**/*.test.ts'];
const postgres = {
	globalSetup: ['harness/postgres/global-setup.ts'],
	setupFiles: ['harness/postgres/setup.ts'],
	testTimeout: 60_000,
	hookTimeout: 60_000
};
// Exercise 06 asks it for a PostgreSQL, started on the first ask: a run of 01–05 never starts one.
export const postgresOnDemand = ['harness/endpoint/postgres-on-demand.ts'];
// The schema validators are generated JavaScript (tools/validators.ts), a quarter of a megabyte: Node loads
// them as they are, which is much quicker than Vite transforming them and sending them to every test worker.
export const server = { deps: { external: [/[\\/]loaders[\\/]validators[\\/]compiled\.js$/] } };

export default defineConfig({
	test: {
		projects: [
			// The learner's files, as they are in exercises/. For a quick loop (tools/bench/learner.ts): the tests
			// run in a worker thread, which starts, and fetches each module from Vitest, faster than a child process;
			// test files share their workers' imports (no shared module keeps state, and the progress test holds
			// every exercise green this way); and transforms stay on disk between runs, keyed by each file's content.
			{
				test: {
					name: 'exercises',
					include: tests,
					server,
					pool: 'threads',
					isolate: false,
					experimental: { fsModuleCache: true },
					globalSetup: postgresOnDemand
				}
			},
			// The same tests, reading each learner file from solutions/ instead.
			{
				plugins: [playAgainst(solutions)],
				test: { name: 'solutions', include: tests, server, globalSetup: postgresOnDemand }
			},
			// The workbook's own machinery: schedule loading, the grader, the scripts.
			{
				test: {
					name: 'harness',
					server,
					include: [
						'harness/**/*.test.ts',
						'learner/**/*.test.ts',
						'lib/**/*.test.ts',
						'tools/**/*.test.ts',
						'grader/**/*.test.ts',
						'playground/**/*.test.ts',
						'form/**/*.test.ts'
					],
					// The grader's sample submissions hold a learner's edited test file: data, not the harness's tests.
					exclude: [...configDefaults.exclude, 'grader/samples/submissions/**', 'harness/postgres/**']
				}
			},
			// Exercises 03 and 05 on a real PostgreSQL (harness/postgres/): the solutions and the given
			// code play every schedule there, and the model is checked against the server. Its own server per run.
			{
				plugins: [playAgainst(solutions)],
				test: {
					name: 'postgres',
					include: [...onPostgres, 'harness/postgres/**/*.test.ts'],
					server,
					...postgres
				}
			},
			// npm run postgres -- 03: the learner's own files, on PostgreSQL.
			{ test: { name: 'postgres-learner', include: onPostgres, server, ...postgres } }
		]
	}
});
