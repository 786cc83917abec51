// The Vitest config Stryker runs: only the exercises' tests, reading every learner file from solutions/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { playAgainst } from '../redirect.ts';

const root = new URL('../../', import.meta.url);

export default defineConfig({
	root: fileURLToPath(root),
	plugins: [playAgainst(fileURLToPath(new URL('solutions/', root)))],
	test: { name: 'solutions', include: ['exercises/[0-9]*/**/*.test.ts'] }
});
