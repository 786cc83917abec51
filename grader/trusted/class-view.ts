// What the class page shows, from either source: a grading just done, or the results.json files an instructor
// downloaded from Gradescope or GitHub Classroom (npm run grade:report -- grades/).
//
//   const view = viewOfGrade(grade);                  // after npm run grade
//   const view = viewOfResults(readResults('grades')); // from results.json files: the same page
//   writeFileSync('grades/class.html', classPage(view));
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { exercises as manifestExercises } from '#harness/core/manifest.ts';
import type { Diagnosis } from './diagnose.ts';
import type { ClassGrade } from './grade.ts';
import type { GradescopeResults } from './gradescope.ts';

export type Cell = { id: string; score: number; max: number; diagnosis: Diagnosis | null };
export type LearnerRow = { learner: string; score: number; max: number; cells: Cell[] };
export type ClassView = {
	exercises: { id: string; title: string }[];
	learners: LearnerRow[];
	stamps: string[];
};

const round = (n: number) => Math.round(n * 100) / 100;

// How the class was sealed, as the CSV says it.
export const sandboxName = (grade: ClassGrade) =>
	grade.sandbox.bwrap === null
		? 'none (--unsafe-no-sandbox)'
		: grade.sandbox.strace === null
			? 'bubblewrap (untraced)'
			: 'bubblewrap';

export function viewOfGrade(grade: ClassGrade, sandbox = sandboxName(grade)): ClassView {
	const first = grade.graded[0];
	return {
		exercises: grade.exercises.map(({ id, title }) => ({ id, title })),
		learners: grade.graded.map((graded) => ({
			learner: graded.submission.name,
			score: graded.score,
			max: graded.max,
			cells: graded.exercises.map((scored) => ({
				id: scored.exercise.id,
				score: scored.score,
				max: scored.max,
				diagnosis: graded.diagnoses[scored.exercise.id] ?? null
			}))
		})),
		stamps: first
			? [
					`workbook ${first.stamps.workbook}`,
					`schedules ${first.stamps.schedules}`,
					`seed ${first.stamps.seed}`,
					`sandbox ${sandbox}`
				]
			: [`sandbox ${sandbox}`]
	};
}

// Every results.json under folder, named by its folder's path from there ("alice", "section-b/alice").
export function readResults(folder: string): { learner: string; results: GradescopeResults }[] {
	const found: { learner: string; results: GradescopeResults }[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir).sort()) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name === 'results.json')
				found.push({
					learner: relative(folder, dir) || '.',
					results: JSON.parse(readFileSync(path, 'utf8')) as GradescopeResults
				});
		}
	};
	walk(folder);
	return found;
}

export function viewOfResults(all: { learner: string; results: GradescopeResults }[]): ClassView {
	const exercises = manifestExercises().map(({ id, title }) => ({ id, title }));
	const extra = (results: GradescopeResults) => results.extra_data as Record<string, unknown>;
	const stampOf = (key: string) => {
		const seen = [...new Set(all.map(({ results }) => extra(results)[key]).filter((v) => v !== undefined))];
		return seen.length ? `${key} ${seen.join(' / ')}` : null;
	};
	return {
		exercises,
		learners: all.map(({ learner, results }) => {
			const diagnoses = (extra(results).diagnoses ?? {}) as Record<string, Diagnosis>;
			const cells = exercises.map(({ id }) => {
				const tests = results.tests.filter((test) => test.number.startsWith(`${id}.`));
				return {
					id,
					score: round(tests.reduce((sum, test) => sum + test.score, 0)),
					max: round(tests.reduce((sum, test) => sum + test.max_score, 0)),
					diagnosis: diagnoses[id] ?? null
				};
			});
			return { learner, score: results.score, max: round(cells.reduce((s, c) => s + c.max, 0)), cells };
		}),
		stamps: ['workbook', 'schedules', 'seed', 'sandbox'].flatMap((key) => stampOf(key) ?? [])
	};
}
