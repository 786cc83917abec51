// npm run progress [-- options]: every exercise's tests once, with learner/progress-reporter.ts, which says where
// the learner is rather than every failure; the options are Vitest's, and a `--reporter` of yours wins.
//
// As learner/npm-test.js does, plain JavaScript and Vitest in this same process, and the report built by the
// learner's config (LEARNER_REPORT=progress) rather than named with --reporter, which would start Vite's module
// runner in Vitest's process just to load it.
import { fileURLToPath } from 'node:url';
import { runVitest } from './built-config.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const given = process.argv.slice(2);
if (!given.some((arg) => arg.startsWith('--reporter'))) process.env.LEARNER_REPORT = 'progress';
// The harness loaded natively (learner/native-harness.ts), as npm-test.js has it for a run.
if (!given.some((arg) => /^(-w|--watch|--ui)(=|$)/.test(arg))) process.env.LEARNER_NATIVE_HARNESS ??= '1';
await runVitest(root, 'run', given);
