// The shipped tests, made at build time: learner/shipped/<folder>/<name>.test.ts, a copy of each exercise's test
// file for `npm run reset`, and learner/shipped/tests.json, how many tests each one holds, which every count the
// learner reads comes from (learner/shipped.ts).
//
//   npm run shipped               // checks them: exit 1, naming each file that is stale
//   npm run shipped -- --write    // writes them from exercises/ and a `vitest list` of the solutions project
//
// A count is made by Vitest collecting the tests, not by reading the file: a test file plays every schedule of
// its kind, so a new schedule adds tests without a line of the file changing. verify checks the counts against
// the solutions' report it already has, so the check costs no second run.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { bin, run } from '../lib/run.ts';
import { shippedCopy, testCounts, testCountsFile, testFilesOf, type TestCounts } from '../learner/shipped.ts';
import { isMain } from '../lib/main-module.ts';

const comment =
	'Made by `npm run shipped -- --write` from exercises/ (never by hand): how many tests each shipped test file holds. npm test, progress and the UI count each exercise from here.';

// How many tests each exercise test file holds, from test results or a listing: one entry per test.
export function countsFrom(tests: { file: string }[], root = workbookRoot): TestCounts {
	const counts: TestCounts = {};
	for (const exercise of exercises(root)) counts[exercise.folder] = {};
	for (const test of tests) {
		const [top, folder, ...rest] = relative(root, test.file).split(/[\\/]/);
		if (top !== 'exercises' || !folder || !counts[folder]) continue;
		const name = rest.join('/');
		counts[folder][name] = (counts[folder][name] ?? 0) + 1;
	}
	return counts;
}

// What is stale: a count that differs from the tests collected, a copy that differs from its test file.
export function staleness(collected: TestCounts, root = workbookRoot): string[] {
	const problems: string[] = [];
	const known = testCounts(root);
	for (const exercise of exercises(root)) {
		const want = collected[exercise.folder] ?? {};
		const have = known[exercise.folder] ?? {};
		for (const name of new Set([...Object.keys(want), ...Object.keys(have)])) {
			if (want[name] !== have[name])
				problems.push(
					`${testCountsFile}: exercises/${exercise.folder}/${name} holds ${want[name] ?? 'no'} tests, it says ${have[name] ?? 'nothing'}`
				);
		}
		for (const file of testFilesOf(root, exercise, collected).filter((f) => f.state !== 'as shipped'))
			problems.push(`${shippedCopy(exercise.folder, file.name)}: not a copy of ${file.file} as it is`);
	}
	return problems.map((problem) => `${problem} (run npm run shipped -- --write)`);
}

// Every test of the solutions project, collected and not run: a few seconds.
async function listed(root = workbookRoot): Promise<{ file: string }[]> {
	const dir = mkdtempSync(join(tmpdir(), 'shipped-'));
	try {
		const out = join(dir, 'list.json');
		const ran = await run(bin('vitest'), ['list', '--project', 'solutions', `--json=${out}`], { cwd: root });
		if (ran.code !== 0) throw new Error(`vitest list failed:\n${ran.output}`);
		return JSON.parse(readFileSync(out, 'utf8')) as { file: string }[];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export function writeShipped(collected: TestCounts, root = workbookRoot): void {
	for (const exercise of exercises(root))
		for (const name of Object.keys(collected[exercise.folder] ?? {})) {
			const copy = join(root, shippedCopy(exercise.folder, name));
			mkdirSync(dirname(copy), { recursive: true });
			copyFileSync(join(root, 'exercises', exercise.folder, name), copy);
		}
	writeFileSync(
		join(root, testCountsFile),
		`${JSON.stringify({ $comment: comment, ...collected }, null, '\t')}\n`
	);
}

if (isMain(import.meta.url)) {
	const collected = countsFrom(await listed());
	if (process.argv.includes('--write')) writeShipped(collected);
	const problems = staleness(collected);
	for (const problem of problems) console.error(`✘ ${problem}`);
	console.log(`shipped tests: ${problems.length ? `${problems.length} stale` : 'fresh'}`);
	process.exitCode = problems.length ? 1 : 0;
}
