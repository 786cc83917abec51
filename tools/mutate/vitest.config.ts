// The Vitest config Stryker runs: only the exercises' tests, reading every learner file from solutions/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { server, testsOf } from '../../vitest.config.ts';
import { exercises } from '../../harness/core/manifest.ts';
import { playAgainst } from '../../lib/redirect.ts';

const root = new URL('../../', import.meta.url);

export default defineConfig({
	root: fileURLToPath(root),
	plugins: [playAgainst(fileURLToPath(new URL('solutions/', root)))],
	test: {
		name: 'solutions',
		// An exercise that stores only in PostgreSQL is not mutated (stryker.config.mjs says why), so its tests
		// would only cost time here.
		include: testsOf(exercises().filter((exercise) => exercise.postgres !== 'only')),
		server
	}
});
