import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { playAgainst } from './lib/redirect.ts';
import { exercises, onPostgres, type Exercise } from './harness/core/manifest.ts';
import { watchedThreads } from './lib/watchdog/pool.ts';

const solutions = fileURLToPath(new URL('./solutions/', import.meta.url));
// The exercises are the manifest's: their test files, and the ones that play on PostgreSQL too.
export const testsOf = (list: Exercise[]) =>
	list.map((exercise) => `exercises/${exercise.folder}/**/*.test.ts`);
const tests = testsOf(exercises());
const alsoOnPostgres = testsOf(onPostgres('also'));
// How the tests of those find a PostgreSQL: one server per run.
const postgres = {
	globalSetup: ['harness/postgres/global-setup.ts'],
	setupFiles: ['harness/postgres/setup.ts'],
	testTimeout: 60_000,
	hookTimeout: 60_000
};
// An exercise that stores only in PostgreSQL ("postgres": "only") asks this for one, started on the first
// ask: a run of the others never starts one.
export const postgresOnDemand =
	onPostgres('only').length > 0 ? ['harness/endpoint/postgres-on-demand.ts'] : [];
// The schema validators are generated JavaScript (tools/validators.ts), a quarter of a megabyte: Node loads
// them as they are, which is much quicker than Vite transforming them and sending them to every test worker.
// A test thread whose learner code never returns is ended after a time limit (lib/watchdog/pool.ts), and
// the run says which test and step it was in: the watchdog lives outside the thread it guards.
export const watchdogSetup = 'lib/watchdog/setup.ts';
export const server = { deps: { external: [/[\\/]core[\\/]validators[\\/]compiled\.js$/] } };

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
					pool: watchedThreads(),
					setupFiles: [watchdogSetup],
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
					// The grader's sample submissions hold a learner's edited test file, and learner/shipped/ the
					// exercises' test files as shipped (for npm run reset): data, not the harness's tests.
					exclude: [
						...configDefaults.exclude,
						'grader/samples/submissions/**',
						'learner/shipped/**',
						'harness/postgres/**'
					]
				}
			},
			// The "also" exercises on a real PostgreSQL (harness/postgres/): the solutions and the given
			// code play every schedule there, and the model is checked against the server. Its own server per run.
			{
				plugins: [playAgainst(solutions)],
				test: {
					name: 'postgres',
					include: [...alsoOnPostgres, 'harness/postgres/**/*.test.ts'],
					server,
					...postgres
				}
			},
			// npm run postgres -- 03: the learner's own files, on PostgreSQL.
			{
				test: {
					name: 'postgres-learner',
					include: alsoOnPostgres,
					server,
					...postgres,
					pool: watchedThreads(),
					setupFiles: [...postgres.setupFiles, watchdogSetup]
				}
			}
		]
	}
});
