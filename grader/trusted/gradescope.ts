// Gradescope's results.json for one submission (the format its autograder reads, documented in gradescope.schema.json).
import { saidDiagnosis, type Diagnosis } from './diagnose.ts';
import type { Graded } from './grade.ts';
import { printable } from './run-exercise.ts';
import { oneLine } from './shown.ts';
import type { ScoredExercise, ScoredTest } from './score.ts';

export type GradescopeTest = {
	name: string;
	number: string;
	score: number;
	max_score: number;
	status: 'passed' | 'failed';
	output: string;
	visibility: 'visible' | 'hidden' | 'after_due_date' | 'after_published';
	tags: string[];
};
export type GradescopeResults = {
	score: number;
	execution_time: number;
	output: string;
	visibility: 'visible';
	stdout_visibility: 'hidden';
	tests: GradescopeTest[];
	extra_data: Record<string, unknown>;
};

function output(test: ScoredTest): string {
	if (test.free)
		return `Passes as shipped, so it is worth no points.${test.status === 'passed' ? '' : `\n${test.message}`}`;
	return test.status === 'passed' ? 'Passed.' : test.message;
}

export function stampLines(graded: Graded): string[] {
	const { workbook, schedules, submission, seed } = graded.stamps;
	return [`workbook ${workbook} · schedules ${schedules} · submission files ${submission} · seed ${seed}`];
}

export function submissionNotes(graded: Graded): string[] {
	const { submission } = graded;
	const notes: string[] = [];
	if (graded.unsafe) notes.push('Graded WITHOUT a sandbox (--unsafe-no-sandbox): its code ran unsealed.');
	if (graded.untraced)
		notes.push(
			'Graded in the sandbox WITHOUT its tracer (--untraced): attempts that failed quietly were not seen.'
		);
	for (const e of graded.exercises) if (e.note) notes.push(`${e.exercise.id}: ${e.note}.`);
	if (submission.notAWorkbook) notes.push(`Nothing graded: ${submission.notAWorkbook}.`);
	if (submission.missing.length && !submission.notAWorkbook)
		notes.push(`Not submitted: ${listed(submission.missing)}`);
	if (submission.refused.length) notes.push(`Not taken: ${listed(submission.refused)}`);
	if (submission.ignored.length)
		notes.push(`Ignored (only the learner files are graded): ${listed(submission.ignored)}`);
	return notes;
}

// "01 · The first handler › the schedules, as create-every-time One delivery"
export function testName(scored: ScoredExercise, test: ScoredTest): string {
	const heading = `${scored.exercise.id} · ${scored.exercise.title}`;
	const rest = test.name.startsWith(`${heading} `) ? test.name.slice(heading.length + 1) : test.name;
	return `${heading} › ${rest}`;
}

export function listed(items: string[], most = 20): string {
	const shown = items
		.slice(0, most)
		.map((item) => oneLine(printable(item)))
		.join(', ');
	return items.length > most ? `${shown} and ${items.length - most} more` : shown;
}

// What a learner reads about a red exercise: the mistake their answers match, what the lesson says of it and
// the hint to read; or that it is none of the named ones. Never a held-out input, nor the judge's words on one.
export function learnerDiagnosis(graded: Graded): string[] {
	return graded.exercises.flatMap((scored) => {
		const diagnosis = graded.diagnoses[scored.exercise.id];
		if (!diagnosis) return [];
		const heading = `${scored.exercise.id} · ${scored.exercise.title}`;
		const hint =
			diagnosis.language === 'Go'
				? `go run ./cmd/workbook hint ${scored.exercise.id}` // from go/, as the Go track's README says
				: `npm run hint -- ${scored.exercise.id}`;
		if (diagnosis.kind === 'mistake')
			return [
				`${heading}: your answers match the mistake "${diagnosis.name}" on ${diagnosis.matched} of ${diagnosis.of} inputs where it or you differ from the reference: ${diagnosis.mistake}.`,
				...(diagnosis.lesson ? [`  The lesson: ${diagnosis.lesson}.`] : []),
				diagnosis.hint
					? `  Read hint ${diagnosis.hint} of \`${hint}\`${diagnosis.hintTitle ? `: "${diagnosis.hintTitle}"` : ''}`
					: `  Read \`${hint}\`.`
			];
		if (diagnosis.kind === 'unwritten') return [`${heading}: not written yet.`];
		return [`${heading}: not one of the named mistakes. Read \`${hint}\`.`];
	});
}

// The diagnoses as results.json keeps them for npm run grade:report, without the judge's words on any input.
export function keptDiagnoses(graded: Graded): Record<string, Diagnosis> {
	return Object.fromEntries(
		Object.entries(graded.diagnoses).map(([id, d]) => [
			id,
			d.kind === 'unnamed' ? { ...d, first: { ...d.first, problem: '' } } : d
		])
	);
}

export const diagnosisLine = (id: string, diagnosis: Diagnosis) => `${id}: ${saidDiagnosis(diagnosis)}`;

export function gradescopeResults(graded: Graded): GradescopeResults {
	const tests = graded.exercises.flatMap((scored) =>
		scored.tests.map((test, i) => ({
			name: testName(scored, test),
			number: `${scored.exercise.id}.${i + 1}`,
			score: test.score,
			max_score: test.max,
			status: test.status === 'passed' ? ('passed' as const) : ('failed' as const),
			output: output(test),
			visibility: 'visible' as const,
			tags: [test.heldOut ? 'held-out' : 'given', ...(test.status === 'not executed' ? ['not executed'] : [])]
		}))
	);
	return {
		score: graded.score,
		execution_time: Math.round(graded.seconds),
		output: [...stampLines(graded), ...submissionNotes(graded), ...learnerDiagnosis(graded)].join('\n'),
		visibility: 'visible',
		stdout_visibility: 'hidden',
		tests,
		extra_data: {
			max_score: graded.max,
			...graded.stamps,
			sandbox: graded.unsafe ? 'none' : graded.untraced ? 'bubblewrap (untraced)' : 'bubblewrap',
			diagnoses: keptDiagnoses(graded)
		}
	};
}
