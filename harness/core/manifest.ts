// The list of exercises: their folders, titles, and the files a learner edits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// timeLimitFactor: how many times the grader's time limit this exercise gets (06 starts PostgreSQL and
// plays every schedule over HTTP); 1 when left out. postgres: where it meets a real PostgreSQL (below).
export type Exercise = {
	id: string;
	folder: string;
	title: string;
	// The lesson's sections it builds on, each its number and title: "04 Try a decision".
	lesson?: string[];
	learnerFiles: string[];
	// The Go track's learner files, under go/exercises/<folder>/ (their solutions under go/solutions/<folder>/).
	goLearnerFiles?: string[];
	weight: number;
	timeLimitFactor?: number;
	postgres?: OnPostgres;
};

// 'also': played on the in-memory model, and on PostgreSQL too (npm run postgres -- NN, verify's postgres
// project). 'only': its code stores in PostgreSQL, so its tests start one when they first ask.
export type OnPostgres = 'also' | 'only';

export const workbookRoot = fileURLToPath(new URL('../../', import.meta.url));
export const manifestPath = join(workbookRoot, 'exercises', 'manifest.json');

// The exercises of the workbook at root (this one unless told), in the manifest's order.
export function exercises(root = workbookRoot): Exercise[] {
	const path = join(root, 'exercises', 'manifest.json');
	return (JSON.parse(readFileSync(path, 'utf8')) as { exercises: Exercise[] }).exercises;
}

// The exercises that meet PostgreSQL in this way: the one list every config and command derives its own from.
export function onPostgres(how: OnPostgres, root = workbookRoot): Exercise[] {
	return exercises(root).filter((exercise) => exercise.postgres === how);
}

// The exercises a Go learner can do: those with Go learner files, in the manifest's order.
export function goExercises(root = workbookRoot): (Exercise & { goLearnerFiles: string[] })[] {
	return exercises(root).filter(
		(exercise): exercise is Exercise & { goLearnerFiles: string[] } => !!exercise.goLearnerFiles?.length
	);
}

// The heading a test file's describe() uses, so the Vitest UI reads as the syllabus.
export function heading(id: string): string {
	const exercise = exercises().find((e) => e.id === id);
	if (!exercise) throw new Error(`exercises/manifest.json has no exercise ${id}`);
	return `${exercise.id} · ${exercise.title}`;
}

// "**In the lesson:** section 04 (Try a decision) and section 08 (The parts to watch).": the line under each
// exercise README's title.
export function inTheLesson(exercise: Exercise): string {
	const said = (exercise.lesson ?? []).map(
		(section) => `section ${section.slice(0, 2)} (${section.slice(3)})`
	);
	const list = said.length > 1 ? `${said.slice(0, -1).join(', ')} and ${said.at(-1)}` : said.join('');
	return `**In the lesson:** ${list}.`;
}
