// The config of the learner's runs (`npm test`, `npm run watch`, `npm run progress`): the `exercises` project of
// vitest.config.ts alone, taken from there rather than written twice. Vitest starts one project a good deal
// faster than it starts three and then picks one (npm run bench:learner measures the learner's loop).
//
// The short report and progress's come in with the config when learner/npm-test.js asks (LEARNER_REPORT): Vite
// bundles a config and its imports in one quick native step, where a `--reporter=./learner/loop-reporter.ts`
// would start Vite's module runner in Vitest's own process and send each of the report's files through it
// (about a tenth of a second on every run). A `--reporter` given on the command line still wins.
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { onPostgres } from '../harness/core/manifest.ts';
import workbook, { postgresOnDemand } from '../vitest.config.ts';
import LoopReporter from './loop-reporter.ts';
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

export default defineConfig({
	...exercises,
	root: fileURLToPath(new URL('../', import.meta.url)),
	test: {
		...exercises.test,
		globalSetup: needsPostgres ? postgresOnDemand : [],
		...(report ? { reporters: [report] } : {})
	}
});
