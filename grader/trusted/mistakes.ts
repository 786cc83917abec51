// The named mistakes, observed: every wrong solution of an exercise (solutions/wrong/*.patch) played on the
// same checks and inputs as the reference, once per grading (on the first learner who needs it:
// expect.ts's plannedMistakes), in the grader's own process (it is the workbook's own code). What each
// answered is what a failing learner's answers are held against.
//
//   const mistakes = await observeMistakes(exercise, checks, (code, check, input) => observe(…));
//   mistakes[0]   // { name: 'new-key-per-attempt', mistake: 'begin() makes a new key…', answers }
//
// A wrong solution's files are its patched text, written beside the exercise's given files in a folder of
// their own whose package.json maps #harness/… to the workbook's harness, so they import what a learner's do.
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Exercise } from '#harness/core/manifest.ts';
import { hintsFile, readHints, type HintLanguage } from '../../lib/hints.ts';
import { wrongSolutions, writeWrongSolution, type WrongSolution } from '../../lib/wrong-solutions.ts';
import type { Code } from '../inside/observer.ts';
import type { Diagnosis } from './diagnose.ts';
import { root } from '../sandbox/paths.ts';
import { privateStampedFolder } from '../sandbox/leftovers.ts';
import { answerOf, type Answers, type Said } from './answers.ts';
import type { PlannedCheck } from './expect.ts';

export type Mistake = {
	name: string;
	mistake: string;
	lesson: string | null;
	hint: number | null;
	// The hint's question (or answer) as hints.md heads it, for a learner who reads only the report.
	hintTitle: string | null;
	answers: Answers;
};

// hints.md's n-th heading ("## When the user presses Send a second time, …?"), or null; hints.go.md's for Go.
const hintTitle = (exercise: Exercise, n: number | undefined, language: HintLanguage = 'typescript') =>
	n && existsSync(join(root, hintsFile(exercise, language)))
		? (readHints(root, exercise, language)[n - 1]?.title ?? null)
		: null;

// A diagnosis made of a Go run, as a Go learner reads it: the same hint's number (hints.go.md has hints.md's
// hints in its order, lib/hints.test.ts holds it to that), quoted from Go's hints.
export const inGo = (diagnosis: Diagnosis, exercise: Exercise): Diagnosis =>
	diagnosis.kind === 'mistake'
		? { ...diagnosis, language: 'Go', hintTitle: hintTitle(exercise, diagnosis.hint ?? undefined, 'go') }
		: { ...diagnosis, language: 'Go' };
export type Observe = (code: Code, check: PlannedCheck, input: unknown) => Promise<unknown>;

// A folder that imports like the workbook: its own package.json, the harness linked in.
function workbookLike(): string {
	const dir = privateStampedFolder(tmpdir(), 'grade-mistakes-');
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify({ type: 'module', imports: { '#harness/*': './harness/*' } })
	);
	symlinkSync(join(root, 'harness'), join(dir, 'harness'), 'dir');
	return dir;
}

// The wrong solution's learner files, the solution's for the ones it leaves alone, and the given code.
async function codeOf(wrong: WrongSolution, exercise: Exercise, dir: string): Promise<Code> {
	const folder = join(dir, wrong.name, exercise.folder);
	mkdirSync(folder, { recursive: true });
	for (const name of readdirSync(join(root, 'exercises', exercise.folder)))
		if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !exercise.learnerFiles.includes(name))
			copyFileSync(join(root, 'exercises', exercise.folder, name), join(folder, name));
	for (const file of exercise.learnerFiles)
		copyFileSync(join(root, 'solutions', exercise.folder, file), join(folder, file));
	writeWrongSolution(wrong, join(dir, wrong.name));
	const code: Code = {};
	for (const file of exercise.learnerFiles) code[file] = await import(pathToFileURL(join(folder, file)).href);
	return code;
}

async function said(observe: Observe, code: Code, check: PlannedCheck, input: unknown): Promise<Said> {
	try {
		return { ok: await observe(code, check, input) };
	} catch (error) {
		const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
		return { threw: { name, message } };
	}
}

export async function observeMistakes(
	exercise: Exercise,
	checks: PlannedCheck[],
	observe: Observe,
	from = wrongSolutions().filter((wrong) => wrong.exercise === exercise.id && wrong.language !== 'go')
): Promise<Mistake[]> {
	if (from.length === 0) return [];
	const dir = workbookLike();
	try {
		const mistakes: Mistake[] = [];
		for (const wrong of from) {
			const code = await codeOf(wrong, exercise, dir);
			const answers: Answers = [];
			for (const check of checks) {
				const row = [];
				for (const [i, input] of check.cases.entries())
					row.push(answerOf(check, i, await said(observe, code, check, input)));
				answers.push(row);
			}
			mistakes.push({
				name: wrong.name,
				mistake: wrong.mistake,
				lesson: wrong.lesson ?? null,
				hint: wrong.hint ?? null,
				hintTitle: hintTitle(exercise, wrong.hint),
				answers
			});
		}
		return mistakes;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
