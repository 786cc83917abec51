// The Go track's checks, for npm run verify: every Go exercise fails as shipped, at a stub, and every Go
// wrong solution (go/solutions/wrong/*.patch) fails in the test its header names, with its words, its
// first failure in the package the story in the harness's words (tools/wrong/first-failure.ts).
//
//   goExercisesFailAsShipped()   go test ./exercises/... as shipped: each exercise red at "is not written yet",
//                                and reset's copies (learner/shipped/go/) the stubs
//   goWrongSolutionsFail()       each patch applied in memory, read in place of the solution with -overlay
//   lessonGoPasses()             the lesson's section 02 Go (go/testdata/lesson/section-02.go.txt), pasted
//                                over 02's SameEvent and Replay as it is, passes 02's Go tests
//
// Both answer as verify's steps do: how many passed, how many failed, and the problems in words.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { goExercises, onPostgres } from '#harness/core/manifest.ts';
import { urlVariable } from '#harness/endpoint/postgres-on-demand.ts';
import { startPostgres } from '#harness/postgres/server.ts';
import { bareAssertion } from './wrong/first-failure.ts';
import { goDir, goTest, solutionsOverlay, type GoTest } from '../lib/go-test.ts';
import { goWrongDir, patchedFiles, wrongSolutions, type WrongSolution } from '../lib/wrong-solutions.ts';

export type Checked = { passed: number; failed: number; problems: string[] };

const tally = (problems: (string | null)[]): Checked => ({
	passed: problems.filter((problem) => problem === null).length,
	failed: problems.filter((problem) => problem !== null).length,
	problems: problems.filter((problem): problem is string => problem !== null)
});

// The stubs as shipped, no solution read in their place: each exercise's package fails, at a stub.
export async function goExercisesFailAsShipped(): Promise<Checked> {
	const report = await goTest(goDir, 120_000, {
		replace: {},
		packages: ['./exercises/...'],
		postgres: false
	});
	// reset puts back learner/shipped/go/'s copy, so it must be the stub as shipped: checked here, in the
	// maintainers' tree, and not by a go test, which a learner's copy, stubs written, would fail.
	const copies = goExercises().flatMap((exercise) =>
		exercise.goLearnerFiles.map((file) => {
			const stub = join(goDir, 'exercises', exercise.folder, file);
			const copy = join(goDir, '..', 'learner', 'shipped', 'go', exercise.folder, `${file}.txt`);
			const same = (() => {
				try {
					return readFileSync(copy, 'utf8') === readFileSync(stub, 'utf8');
				} catch {
					return false;
				}
			})();
			return same
				? null
				: `learner/shipped/go/${exercise.folder}/${file}.txt is not go/exercises/${exercise.folder}/${file} as shipped (cp the stub there)`;
		})
	);
	return tally([
		...copies,
		...goExercises().map((exercise) => {
			const pkg = `exercises/${exercise.folder}: `;
			const failed = report.tests.filter((test) => test.name.startsWith(pkg) && test.status === 'failed');
			if (failed.length === 0) return `go/exercises/${exercise.folder} passes as shipped: it teaches nothing`;
			if (!failed.some((test) => test.output.includes('is not written yet')))
				return `go/exercises/${exercise.folder} fails as shipped, but not at a stub:\n${failed[0]!.output}`;
			return toldMoreThanOnce(exercise.folder, failed);
		})
	]);
}

// A stub's story (core.Todo's lines, from "is not written yet." to "write it in") told by more than one of a
// package's tests, said as a problem: core.Written tells it in the first test that stops there, and the
// others point to that test in one line, so a shipped exercise reads on one screen.
function toldMoreThanOnce(folder: string, failed: GoTest[]): string | null {
	const tellers = new Map<string, string[]>();
	for (const test of failed)
		for (const [, stub] of test.output.matchAll(/(\S+) is not written yet\.\n\s*write it in /g))
			tellers.set(stub!, [...(tellers.get(stub!) ?? []), test.name.slice(test.name.indexOf(': ') + 2)]);
	const repeated = [...tellers].filter(([, tests]) => tests.length > 1);
	if (repeated.length === 0) return null;
	return repeated
		.map(
			([stub, tests]) =>
				`go/exercises/${folder} tells the story of the stub ${stub} ${tests.length} times (${tests.join(', ')}): ` +
				'the first test to stop at a stub tells it, the others point to that test in one line (core.Written)'
		)
		.join('\n');
}

// One Go wrong solution played: the go test of its exercise's package with the patched files read in place
// of the solution's, go/exercises/<folder>/<file>, and the test its header names (undefined when none ran;
// said is what the run said, or why the patch could not play). Only its test's top-level function runs, on
// postgresUrl if it asks.
export async function playGoWrongTest(
	wrong: WrongSolution,
	postgresUrl: string | null = null
): Promise<{ test?: GoTest; first?: GoTest; said: string }> {
	const folder = mkdtempSync(join(tmpdir(), 'workbook-go-wrong-'));
	const pkg = wrong.goPackage ?? `exercises/${wrong.folder}`;
	try {
		const replace = solutionsOverlay();
		let files: Record<string, string>;
		try {
			files = patchedFiles(wrong);
		} catch (error) {
			// A patch its solution has moved away from fails under its own name; the others still play.
			return { said: `no longer applies: ${(error as Error).message}` };
		}
		for (const [file, text] of Object.entries(files)) {
			const path = join(folder, basename(file));
			writeFileSync(path, text);
			replace[join(goDir, pkg, file)] = path;
		}
		const report = await goTest(goDir, 120_000, {
			replace,
			packages: [`./${pkg}`],
			// The whole package, as the learner's go test runs it, so the first failure is the one they read
			// first; an exercise that stores in PostgreSQL plays only the named test (each of its plays costs).
			...(onPostgres('only').some((exercise) => exercise.id === wrong.exercise)
				? { run: `^${wrong.test.split('/')[0]}$` }
				: {}),
			...(postgresUrl ? { env: { [urlVariable]: postgresUrl } } : { postgres: false })
		});
		const named = `${pkg}: ${wrong.test}`;
		return {
			test: report.tests.find((candidate) => candidate.name === named),
			// The first to fail saying something of its own: a parent's own check prints before its subtests.
			first: report.tests.find(
				(candidate) => candidate.status === 'failed' && candidate.output.trim() !== ''
			),
			said: `no test ${named} ran\n${report.problems.join('\n')}`
		};
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

// One Go wrong solution: null when its test fails with every one of its words, and the first failure in its
// run tells the story in the harness's words, else what went another way.
async function playGoWrong(wrong: WrongSolution, postgresUrl: string | null): Promise<string | null> {
	const { test, first, said: ran } = await playGoWrongTest(wrong, postgresUrl);
	const said = `go/solutions/wrong/${wrong.name}.patch (${wrong.mistake})`;
	if (!test) return `${said}: ${ran}`;
	if (test.status !== 'failed') return `${said}: ${wrong.test} passed; it should catch this mistake`;
	const missing = wrong.says.filter((words) => !test.output.includes(words));
	if (missing.length)
		return `${said}: ${wrong.test} failed without saying ${missing.map((m) => JSON.stringify(m)).join(', ')}:\n${test.output}`;
	const bare = first && bareAssertion(first.output);
	return bare
		? `${said}: its first failure, ${first.name}, is a bare assertion, not the story in the harness's words: ${bare}`
		: null;
}

// Every Go wrong solution, two at a time (each is a go test of one package). An exercise that stores in
// PostgreSQL (the manifest's "postgres": "only", 06) plays on one: one server for all of them, unless one
// is given.
export async function goWrongSolutionsFail(dir = goWrongDir): Promise<Checked> {
	const problems: (string | null)[] = [];
	const wrongs = wrongSolutions(dir);
	const stores = new Set(onPostgres('only').map((exercise) => exercise.id));
	const needsPostgres = wrongs.some((wrong) => stores.has(wrong.exercise));
	const given = process.env[urlVariable];
	const server = needsPostgres && !given ? await startPostgres() : null;
	try {
		const url = given ?? server?.url ?? null;
		// Two at a time: each is mostly compiling and linking its own test binary, one core each.
		let next = 0;
		const worker = async () => {
			while (next < wrongs.length) {
				const i = next++;
				problems[i] = await playGoWrong(wrongs[i]!, url);
			}
		};
		await Promise.all([worker(), worker()]);
	} finally {
		await server?.stop();
	}
	return tally(problems);
}

// 02's Go solution with its SameEvent and Replay replaced by the lesson's text, exactly as the lesson
// prints it, and 02's Go tests run on that.
export async function lessonGoPasses(): Promise<Checked> {
	const lesson = readFileSync(join(goDir, 'testdata', 'lesson', 'section-02.go.txt'), 'utf8');
	const solution = readFileSync(join(goDir, 'solutions', '02-same-event', 'handler.go'), 'utf8');
	const from = solution.indexOf('// SameEvent is');
	const to = solution.indexOf('// ReceiptHandler');
	if (from < 0 || to < from)
		return tally(['go/solutions/02-same-event/handler.go: no SameEvent and Replay to paste the lesson over']);
	const folder = mkdtempSync(join(tmpdir(), 'workbook-go-lesson-'));
	try {
		const pasted = join(folder, 'handler.go');
		writeFileSync(pasted, `${solution.slice(0, from)}${lesson.trimEnd()}\n\n${solution.slice(to)}`);
		const replace = {
			...solutionsOverlay(),
			[join(goDir, 'exercises', '02-same-event', 'handler.go')]: pasted
		};
		const report = await goTest(goDir, 120_000, {
			replace,
			packages: ['./exercises/02-same-event'],
			postgres: false
		});
		const failed = report.tests.filter((test) => test.status === 'failed' && test.leaf);
		const problems = [...failed.map((test) => `${test.name}\n${test.output}`), ...report.problems];
		if (report.tests.length === 0) problems.push('no Go test of 02 ran');
		return tally([
			problems.length ? `the lesson's Go, pasted into 02, does not pass:\n${problems.join('\n')}` : null
		]);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
