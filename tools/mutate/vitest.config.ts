// The Vitest config Stryker runs: only the exercises' tests, reading every learner file from solutions/.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { server } from '../../vitest.config.ts';
import { playAgainst } from '../../lib/redirect.ts';

const root = new URL('../../', import.meta.url);

export default defineConfig({
	root: fileURLToPath(root),
	plugins: [playAgainst(fileURLToPath(new URL('solutions/', root)))],
	test: {
		name: 'solutions',
		include: ['exercises/[0-9]*/**/*.test.ts'],
		server,
		// 06's solution is not mutated (stryker.config.mjs says why), so its tests would only cost time here.
		exclude: [...configDefaults.exclude, 'exercises/06-*/**']
	}
});
