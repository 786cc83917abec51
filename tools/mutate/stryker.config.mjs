// StrykerJS for `npm run mutate`: mutates solutions/ and plays the exercises' tests against each mutant.
// Equivalent mutants that survive, and why, are listed beside this file in equivalent-mutants.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	vitest: { configFile: 'tools/mutate/vitest.config.ts' },
	// 06 plays every mutant over HTTP on PostgreSQL, seconds each: left out until it has a quick way in.
	mutate: ['solutions/**/*.ts', '!solutions/06-ticket-endpoint/**'],
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
