// The Vitest UI's own config (npm run ui, learner/ui.ts): the learner's steps from .learner/ui/, one
// project with no name, so the tree shows no project badge, and a reporter that ends with the UI's address.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { postgresOnDemand, server, watchdogSetup } from '../vitest.config.ts';
import { watchedThreads } from '../lib/watchdog/pool.ts';

const workbook = fileURLToPath(new URL('../', import.meta.url));

export default defineConfig({
	root: `${workbook}.learner/ui`,
	// Vite watches its root; the learner's files live outside it, in exercises/.
	plugins: [
		{
			name: 'watch-the-exercises',
			configureServer: (server) => void server.watcher.add(`${workbook}exercises`)
		}
	],
	cacheDir: `${workbook}node_modules/.vite`,
	test: {
		include: ['**/*.test.ts'],
		// Run as the exercises project runs (vitest.config.ts): in a watched worker thread whose imports load
		// once, the validators as plain JavaScript, and one PostgreSQL for the exercises that store only there,
		// started on its first ask.
		pool: watchedThreads(),
		setupFiles: [`${workbook}${watchdogSetup}`],
		isolate: false,
		server,
		globalSetup: postgresOnDemand.map((file) => `${workbook}${file}`),
		reporters: [`${workbook}learner/ui-reporter.ts`]
	}
});
