// Which language an exercise of a submission is graded in, by what the learner changed: a class can mix the
// TypeScript track and the Go track, learner by learner and exercise by exercise.
//
//   languagesOf(submission, exercise)   // ['TypeScript'], ['Go'], or ['TypeScript', 'Go'] (both are graded)
//
// The rule: an exercise whose Go learner files (the manifest's goLearnerFiles, under go/exercises/) differ
// from the shipped stubs while its TypeScript ones do not is graded in Go. Both changed: both are graded and
// the better score counts (TypeScript on a tie), and the report says so. Neither changed: TypeScript, as
// before (the untouched stub scores 0). No flag is needed, so one class folder holds both tracks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';
import { root } from '../sandbox/paths.ts';
import type { ScoredExercise } from './score.ts';
import type { Submission } from './submission.ts';

export type Language = 'TypeScript' | 'Go';

const shipped = (path: string) => {
	try {
		return readFileSync(join(root, path), 'utf8');
	} catch {
		return null;
	}
};

function changedTypeScript(submission: Submission, exercise: Exercise): boolean {
	return exercise.learnerFiles.some((file) => {
		const path = `${exercise.folder}/${file}`;
		const taken = submission.files.get(path);
		return taken !== undefined && taken !== shipped(`exercises/${path}`);
	});
}

export const changedGo = (submission: Submission, exercise: Exercise): boolean =>
	(exercise.goLearnerFiles ?? []).some((file) => submission.goFiles.has(`${exercise.folder}/${file}`));

export function languagesOf(submission: Submission, exercise: Exercise): Language[] {
	if (!changedGo(submission, exercise)) return ['TypeScript'];
	return changedTypeScript(submission, exercise) ? ['TypeScript', 'Go'] : ['Go'];
}

// The files a Go run builds: the learner's where it changed them, else the shipped stub's.
export function goExerciseFiles(exercise: Exercise, submission: Submission): Map<string, string> {
	return new Map(
		(exercise.goLearnerFiles ?? []).map((file) => {
			const path = `${exercise.folder}/${file}`;
			return [path, submission.goFiles.get(path) ?? shipped(`go/exercises/${path}`) ?? ''];
		})
	);
}

// Of the exercise graded in each language, the one that counts, and the line that says how it was graded.
export function better(scored: { language: Language; exercise: ScoredExercise }[]): ScoredExercise {
	const [first, ...rest] = scored;
	let best = first!;
	for (const other of rest) if (other.exercise.score > best.exercise.score) best = other;
	if (scored.length === 1 && best.language === 'TypeScript') return best.exercise;
	const points = (e: ScoredExercise) => `${Number(e.score.toFixed(2))}/${e.max}`;
	const note =
		scored.length === 1
			? `graded in Go (go/exercises/${best.exercise.exercise.folder}/)`
			: `graded in both: ${scored.map((s) => `${s.language} ${points(s.exercise)}`).join(', ')}; ${best.language}'s counts`;
	return { ...best.exercise, language: best.language, note };
}
