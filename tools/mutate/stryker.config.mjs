// StrykerJS for `npm run mutate`: mutates solutions/ and plays the exercises' tests against each mutant.
// Equivalent mutants that survive, and why, are listed beside this file in equivalent-mutants.json.
import { readFileSync } from 'node:fs';

// The exercises that store only in PostgreSQL (exercises/manifest.json): each mutant would play over HTTP on
// PostgreSQL, seconds each, so they are left out until they have a quick way in.
const onlyOnPostgres = JSON.parse(
	readFileSync(new URL('../../exercises/manifest.json', import.meta.url), 'utf8')
)
	.exercises.filter((exercise) => exercise.postgres === 'only')
	.map((exercise) => `!solutions/${exercise.folder}/**`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	vitest: { configFile: 'tools/mutate/vitest.config.ts' },
	mutate: ['solutions/**/*.ts', ...onlyOnPostgres],
	// The sandbox needs only the TypeScript side (go/ holds a symlink Stryker cannot copy), and none of the
	// outputs .gitignore lists: grades/ may hold the grader's hostile samples, whose FIFOs would hang the copy.
	ignorePatterns: ['/go', '/grades', '/reports', '/.learner', '/.vitest-progress', '*.log'],
	coverageAnalysis: 'perTest',
	// Stryker rewrites tsconfig.json's paths with TypeScript's JS API, which TypeScript 7 no longer has.
	// Our tsconfig has no "extends" or "references" to rewrite, so point it at a file that isn't there.
	tsconfigFile: 'tools/mutate/no-tsconfig-to-rewrite.json',
	reporters: ['html', 'json', 'progress'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	tempDirName: '.stryker-tmp',
	thresholds: { high: 95, low: 90, break: null }
};
