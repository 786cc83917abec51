// The list of exercises: their folders, titles, and the files a learner edits.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Exercise = { id: string; folder: string; title: string; learnerFiles: string[]; weight: number };

export const manifestPath = fileURLToPath(new URL('../manifest.json', import.meta.url));

export function exercises(): Exercise[] {
	return (JSON.parse(readFileSync(manifestPath, 'utf8')) as { exercises: Exercise[] }).exercises;
}

// The heading a test file's describe() uses, so the Vitest UI reads as the syllabus.
export function heading(id: string): string {
	const exercise = exercises().find((e) => e.id === id);
	if (!exercise) throw new Error(`exercises/manifest.json has no exercise ${id}`);
	return `${exercise.id} · ${exercise.title}`;
}
