// The config of the learner's runs (`npm test`, `npm run watch`, `npm run progress`): the `exercises` project of
// vitest.config.ts alone, taken from there rather than written twice. Vitest starts one project a good deal
// faster than it starts three and then picks one (npm run bench:learner measures the learner's loop).
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import workbook from '../vitest.config.ts';

const exercises = (workbook.test?.projects ?? []).find(
	(project): project is TestProjectInlineConfiguration =>
		typeof project === 'object' && 'test' in project && project.test?.name === 'exercises'
);
if (!exercises) throw new Error('vitest.config.ts has no project named "exercises"');

export default defineConfig({ ...exercises, root: fileURLToPath(new URL('../', import.meta.url)) });
