// The config of the learner's runs (`npm test`, `npm run watch`, `npm run progress`): the `exercises` project of
// vitest.config.ts alone, taken from there rather than written twice. Vitest starts one project a good deal
// faster than it starts three and then picks one (npm run bench:learner measures the learner's loop).
//
// A run loads this config built to JavaScript once for each content (learner/built-config.js), not bundled by
// Vite each time; watch mode and the UI have Vite bundle it.
//
// The short report and progress's come in with the config when learner/npm-test.js asks (LEARNER_REPORT): the
// config and its imports are loaded in one step, where a `--reporter=./learner/loop-reporter.ts`
// would start Vite's module runner in Vitest's own process and send each of the report's files through it
// (about a tenth of a second on every run). A `--reporter` given on the command line still wins.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { onPostgres } from '../harness/core/manifest.ts';
import workbook, { postgresOnDemand, server } from '../vitest.config.ts';
import LoopReporter from './loop-reporter.ts';
import { nativeHarness, type NativeHarness } from './native-harness.ts';
import ProgressReporter from './progress-reporter.ts';

const exercises = (workbook.test?.projects ?? []).find(
	(project): project is TestProjectInlineConfiguration =>
		typeof project === 'object' && 'test' in project && project.test?.name === 'exercises'
);
if (!exercises) throw new Error('vitest.config.ts has no project named "exercises"');

// The exercises npm-test.js was asked for: a run that names none that stores only in PostgreSQL needs no
// global setup to start one (a test that asks all the same starts its own: harness/endpoint/postgres-on-demand.ts).
const asked = process.env.LEARNER_EXERCISES?.split(',');
const needsPostgres = !asked || onPostgres('only').some((exercise) => asked.includes(exercise.id));

// The report learner/npm-test.js or learner/npm-progress.js asks for; none: Vitest's own, or a --reporter given.
const reports = { loop: () => new LoopReporter(), progress: () => new ProgressReporter() };
const report = reports[process.env.LEARNER_REPORT as keyof typeof reports]?.();

// A run (not watch mode: there, an edited harness file is news to Vitest's watcher) loads the harness natively,
// built to JavaScript (learner/native-harness.ts): every import of #harness/… or of a file in harness/ is the
// built module, which Node loads, and the thread's stack lines are mapped back to the harness's sources.
const root = fileURLToPath(new URL('../', import.meta.url));
const native = process.env.LEARNER_NATIVE_HARNESS === '1' ? nativeHarness(root) : null;
// A harness source Vitest loads itself (a global setup, in Vitest's own process) keeps its imports as they are.
// A module Vitest builds names the built harness it imports by its folder, so Vitest's cache of built modules
// on disk (experimental.fsModuleCache) keys them by that folder too: after a harness edit (a new folder, the
// old one removed) a test file or setup file unchanged since the last run is built again, not read from the
// cache with an import of a file that is gone.
const loadNatively = (built: NativeHarness): Plugin => ({
	name: 'native-harness',
	enforce: 'pre',
	configureVitest({ experimental_defineCacheKeyGenerator }) {
		experimental_defineCacheKeyGenerator(() => built.dir);
	},
	resolveId(source, importer) {
		if (importer && built.resolve(importer.split('?')[0]!) !== null) return null;
		if (source.startsWith('#harness/')) return built.resolve(source);
		if (!importer || !source.startsWith('.')) return null;
		return built.resolve(resolve(dirname(importer), source));
	}
});
const nativeSetup = join(root, 'learner/native-harness-stacks.js');
// A path and all under it, with either separator (Vite writes module ids with /).
const exactly = (path: string) =>
	new RegExp(
		`^${path
			.split(/[\\/]/)
			.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
			.join('[\\\\/]')}`
	);

export default defineConfig({
	...exercises,
	root,
	plugins: native ? [loadNatively(native)] : [],
	test: {
		...exercises.test,
		globalSetup: needsPostgres ? postgresOnDemand : [],
		...(report ? { reporters: [report] } : {}),
		...(native
			? {
					server: {
						deps: { external: [...server.deps.external, exactly(native.dir), exactly(nativeSetup)] }
					},
					setupFiles: [nativeSetup, ...[exercises.test?.setupFiles ?? []].flat()]
				}
			: {})
	}
});
