// Plays every wrong solution (solutions/wrong/*.patch) against its exercise's tests in one Vitest run, and
// checks that each one fails on the test meant to catch its mistake, with the words that explain it. A patch
// whose header has a slip, or that no longer applies to its solution, fails under its own name; the rest
// still play.
//
//   npx tsx tools/wrong/play-wrong.ts
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { heading } from '#harness/core/manifest.ts';
import { PatchError } from '../../lib/patch.ts';
import {
	byExercise,
	patchedFiles,
	patchFiles,
	readWrongSolution,
	wrongDir,
	WrongSolutionError,
	type WrongSolution
} from '../../lib/wrong-solutions.ts';
import { bareAssertion } from './first-failure.ts';
import { wrongSolutionsConfig } from './vitest.config.ts';
import { isMain } from '../../lib/main-module.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export type Ran = { project: string; name: string; failed: boolean; message: string };
// test: the test that must catch it, when the patch could be read that far.
export type Verdict = { name: string; test: string | null; problem: string | null };

// The wrong solutions in dir that can be played, and a verdict for each patch that cannot.
export function readPatches(dir = wrongDir): { playable: WrongSolution[]; broken: Verdict[] } {
	const playable: WrongSolution[] = [];
	const broken: Verdict[] = [];
	for (const path of patchFiles(dir)) {
		const name = basename(path, '.patch');
		try {
			const wrong = readWrongSolution(path);
			patchedFiles(wrong);
			playable.push(wrong);
		} catch (error) {
			if (!(error instanceof PatchError || error instanceof WrongSolutionError)) throw error;
			broken.push({ name, test: null, problem: `wrong solution "${name}": ${error.message}` });
		}
	}
	playable.sort(byExercise);
	return { playable, broken };
}

// Runs the wrong solutions' Vitest projects and lists every test each one ran.
export async function runWrongSolutions(wrongs: WrongSolution[]): Promise<Ran[]> {
	if (wrongs.length === 0) return [];
	const exitCode = process.exitCode;
	// quiet: the verdicts say it all
	const options = { config: false as const, root, watch: false, reporters: [{}] };
	const vitest = await createVitest('test', options, wrongSolutionsConfig(wrongs));
	try {
		await vitest.start();
		return vitest.state.getTestModules().flatMap((module) =>
			[...module.children.allTests()].map((test) => {
				const result = test.result();
				return {
					project: module.project.name,
					name: test.fullName,
					failed: result.state === 'failed',
					message: (result.errors ?? []).map((error) => error.message).join('\n')
				};
			})
		);
	} finally {
		await vitest.close();
		process.exitCode = exitCode; // A wrong solution's failures are what we want, not the command's.
	}
}

// null when the named test failed saying every snippet, and the first failure a learner reads tells the
// story in the harness's words; otherwise what is missing.
export function judgeWrong(wrong: WrongSolution, ran: Ran[]): string | null {
	const label = `wrong solution "${wrong.name}" (${wrong.exercise}: ${wrong.mistake})`;
	const mine = ran.filter((test) => test.project === wrong.name);
	if (mine.length === 0) return `${label}: no test ran against it`;
	const fullName = `${heading(wrong.exercise)} > ${wrong.test}`;
	const test = mine.find((t) => t.name === fullName);
	if (!test) {
		const names = mine.map((t) => `${t.failed ? '✘' : ' '} ${t.name}`).join('\n');
		return `${label}: no test named "${fullName}". Its tests (✘ failed) are:\n${names}`;
	}
	if (!test.failed) {
		const others = mine.filter((t) => t.failed).map((t) => `  ${t.name}`);
		const caught = others.length
			? `It fails only:\n${others.join('\n')}`
			: 'Every test passes: a gap in the tests.';
		return `${label}: "${wrong.test}" passes, but it is the test meant to catch this mistake. ${caught}`;
	}
	const unsaid = wrong.says.filter((words) => !test.message.includes(words));
	if (unsaid.length)
		return `${label}: "${wrong.test}" fails, but its message does not say ${unsaid.map((w) => JSON.stringify(w)).join(', ')}. It says:\n${test.message}`;
	const first = mine.find((t) => t.failed)!;
	const bare = bareAssertion(first.message);
	return (
		bare &&
		`${label}: its first failure, "${first.name}", is a bare assertion, not the story in the harness's words: ${bare}`
	);
}

// A verdict for every patch in dir: those that played, by exercise, then those that could not.
export async function playWrongSolutions(dir = wrongDir): Promise<Verdict[]> {
	const { playable, broken } = readPatches(dir);
	const ran = await runWrongSolutions(playable);
	const judged = playable.map((w) => ({ name: w.name, test: w.test, problem: judgeWrong(w, ran) }));
	return [...judged, ...broken];
}

if (isMain(import.meta.url)) {
	const verdicts = await playWrongSolutions();
	for (const { name, test, problem } of verdicts)
		console.log(problem ? `✘ ${problem}` : `✔ ${name}: caught by "${test}"`);
	const failed = verdicts.filter((v) => v.problem).length;
	console.log(`wrong solutions: ${verdicts.length - failed} caught, ${failed} not`);
	process.exitCode = failed ? 1 : 0;
}
