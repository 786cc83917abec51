// The Vitest UI's own config (npm run ui, learner/ui.ts): the learner's steps from .learner/ui/ (ui-steps.ts),
// shown by the exercise files they run and stack lines by paths from the workbook (ui-names.ts), on the UI's
// page with the workbook's style (ui-page.ts); one project with no name, so the tree shows no project badge,
// and a reporter that ends with the UI's address.
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { postgresOnDemand, server, watchdogSetup } from '../vitest.config.ts';
import { watchedThreads } from '../lib/watchdog/pool.ts';
import { namesFromTheWorkbook, pathFromTheWorkbook } from './ui-names.ts';
import { workbookStyle } from './ui-page.ts';

const workbook = fileURLToPath(new URL('../', import.meta.url));
// Vite watches its root, the workbook: only the learner's files in exercises/ and the steps concern the UI.
const watched = ['exercises', '.learner', `.learner${sep}ui`];
const unwatched = (path: string) => {
	const inside = relative(workbook, path);
	return !(
		inside === '' ||
		watched.includes(inside) ||
		inside.startsWith(`exercises${sep}`) ||
		inside.startsWith(`.learner${sep}ui${sep}`)
	);
};

export default defineConfig({
	// The workbook's folder, so that the page names every file from it (the module graph: harness/core/…).
	root: workbook,
	plugins: [namesFromTheWorkbook(workbook), workbookStyle()],
	server: { watch: { ignored: unwatched } },
	cacheDir: `${workbook}node_modules/.vite`,
	test: {
		include: ['.learner/ui/**/*.test.ts'],
		onStackTrace: pathFromTheWorkbook(workbook),
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
