// The class CSV: one row per learner, points per exercise, and the stamps that say what was graded.
import { saidDiagnosis } from './diagnose.ts';
import type { ClassGrade } from './grade.ts';
import { csvCell } from './shown.ts';

export function classCsv(grade: ClassGrade): string {
	const header = [
		'learner',
		...grade.exercises.map((e) => `${e.id} ${e.title}`),
		'score',
		'max_score',
		'percent',
		'submission_files',
		'workbook',
		'schedules',
		'seed',
		'sandbox',
		'first_failure',
		...grade.exercises.map((e) => `${e.id} mistake`)
	];
	const rows = grade.graded.map((graded) => {
		const first = graded.exercises.find((e) => e.firstFailure);
		return [
			graded.submission.name,
			...graded.exercises.map((e) => e.score),
			graded.score,
			graded.max,
			graded.max ? Math.round((graded.score / graded.max) * 1000) / 10 : 0,
			graded.stamps.submission,
			graded.stamps.workbook,
			graded.stamps.schedules,
			graded.stamps.seed,
			graded.unsafe ? 'none (--unsafe-no-sandbox)' : graded.untraced ? 'bubblewrap (untraced)' : 'bubblewrap',
			first ? `${first.exercise.id}: ${first.firstFailure!.message.trim().split('\n')[0]}` : '',
			// The mistake a red exercise's answers match, by name; or why none does.
			...grade.exercises.map((e) => {
				const diagnosis = graded.diagnoses[e.id];
				return !diagnosis ? '' : diagnosis.kind === 'mistake' ? diagnosis.name : saidDiagnosis(diagnosis);
			})
		];
	});
	return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
