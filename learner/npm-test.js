// npm test [exercises/NN] [-- --all]: Vitest on the learner's exercises, with the short report.
//
// The short report (learner/loop-reporter.ts) shows the first failure in full and the rest a line each;
// `--all` (or `npm test exercises/04 --all`) gives Vitest's own full report instead, and a `--reporter` of yours
// wins. Every other Vitest option works as usual (-t, file paths, --bail). `npm run watch -- 01` comes here too,
// as `watch exercises/01-first-handler/`. A path that names no exercise gets the list of exercises and exit 2,
// as `hint` and `reset` answer.
//
// Plain JavaScript, run by node itself, and Vitest started in this same process: tsx, or a second Node, would
// add a third of a second to every run of the learner's loop (npm run bench:learner measures it).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runVitest } from './built-config.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const given = process.argv.slice(2);
const all = given.includes('--all') || process.env.npm_config_all === 'true';
const args = given.filter((arg) => arg !== '--all');
const mode = args[0] === 'watch' || args[0] === 'run' ? args.shift() : 'run';
// A run loads the harness natively (learner/native-harness.ts); watch mode (and Vitest's UI, which watches),
// whose watcher must see an edited harness file, does not.
if (mode === 'run' && !args.some((arg) => /^(-w|--watch|--ui)(=|$)/.test(arg)))
	process.env.LEARNER_NATIVE_HARNESS ??= '1';

// Each exercise's folder and test files, as paths from the root: what a filter such as exercises/04 must match.
// The test files are those it ships (learner/shipped/tests.json) and those it holds, so a deleted test file still
// names its exercise. The exercises are the manifest's, read as JSON (harness/core/manifest.ts would need tsx).
const json = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const manifest = json('exercises/manifest.json');
const shipped = existsSync(join(root, 'learner/shipped/tests.json'))
	? json('learner/shipped/tests.json')
	: {};
const pathsOf = ({ folder }) => [
	`exercises/${folder}/`,
	...Object.keys(shipped[folder] ?? {}).map((name) => `exercises/${folder}/${name}`),
	...readdirSync(join(root, 'exercises', folder))
		.filter((name) => name.endsWith('.test.ts'))
		.map((name) => `exercises/${folder}/${name}`)
];
// A bare number names an exercise, unless it is an option's value (`--bail 10`, `--retry 3`).
const namesAnExercise = (arg, i) =>
	/^(\.\/)?exercises\//.test(arg) ||
	(/^\d+$/.test(arg) && !(i > 0 && args[i - 1].startsWith('-') && !args[i - 1].includes('=')));
const named = args.filter(namesAnExercise).map((arg) => arg.replace(/^\.\//, ''));
const namedBy = (arg) => manifest.exercises.filter((e) => pathsOf(e).some((path) => path.includes(arg)));
const unknown = named.find((arg) => namedBy(arg).length === 0);
// The exercises asked for (all of them when none is named), for the short report: it speaks of each, even one
// whose test file is gone.
const asked = manifest.exercises.filter(
	(e) => !named.length || named.some((arg) => namedBy(arg).includes(e))
);
process.env.LEARNER_EXERCISES = asked.map((e) => e.id).join(',');
if (unknown !== undefined) {
	// The rare path: it may take tsx's time to say which exercises there are, in the words hint and reset use.
	const said = spawnSync(
		process.execPath,
		['--import', 'tsx', join(root, 'learner/no-such-exercise.ts'), unknown],
		{ cwd: root, stdio: 'inherit' }
	);
	process.exit(said.status ?? 2);
}

// The short report, unless Vitest's own (--all) or another (--reporter) is asked for: the learner's config builds
// it (learner/vitest.learner.config.ts), which is quicker than naming it here.
const short = !all && !args.some((arg) => arg.startsWith('--reporter'));
if (short) process.env.LEARNER_REPORT = 'loop';
// With no test file left to run (a learner deleted it), the short report still says what is missing.
const noTests = short ? ['--passWithNoTests'] : [];
await runVitest(root, mode, [...noTests, ...args]);
