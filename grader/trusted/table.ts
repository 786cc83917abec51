// The terminal's view of a class: learners × exercises, the first failure of each red cell, and a progress bar.
import { saidDiagnosis } from './diagnose.ts';
import type { ClassGrade, Graded } from './grade.ts';
import { stampLines, submissionNotes } from './gradescope.ts';
import { firstLine, oneLine } from './shown.ts';

const points = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const shortLine = (text: string) => firstLine(text).trimEnd().slice(0, 160);
// Every name, message and path here is the learner's: each on one line (shown.ts), so none can forge another's.

export function classTable(grade: ClassGrade): string {
	const header = ['learner', ...grade.exercises.map((e) => e.id), 'total'];
	const rows = grade.graded.map((graded) => [
		oneLine(graded.submission.name),
		...graded.exercises.map((e) => `${e.score === e.max ? '✔' : '✘'} ${points(e.score)}/${points(e.max)}`),
		`${points(graded.score)}/${points(graded.max)}${graded.unsafe ? '  (no sandbox)' : ''}`
	]);
	const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
	const line = (row: string[]) =>
		row
			.map((cell, i) => cell.padEnd(widths[i]!))
			.join('  ')
			.trimEnd();
	return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// Under the table: for each learner, why each red cell is red, and what was ignored.
export function classDetails(graded: Graded): string[] {
	const lines = graded.exercises
		.filter((e) => e.firstFailure || e.note)
		.flatMap((e) => {
			const diagnosis = graded.diagnoses[e.exercise.id];
			return [
				...(e.note ? [`  ${e.exercise.id}: ${e.note}`] : []),
				...(e.firstFailure ? [`  ${e.exercise.id}: ${oneLine(shortLine(e.firstFailure.message))}`] : []),
				...(diagnosis ? [`      ${oneLine(saidDiagnosis(diagnosis))}`] : [])
			];
		});
	const notes = submissionNotes(graded).map((note) => `  ${oneLine(note)}`);
	if (!lines.length && !notes.length) return [];
	return [`${oneLine(graded.submission.name)}:`, ...lines, ...notes];
}

export function classReport(grade: ClassGrade, goLine: string | null): string {
	const stamps = grade.graded[0]
		? stampLines(grade.graded[0])[0]!.replace(/ · submission files \w+/, '')
		: '';
	return [
		classTable(grade),
		'',
		...grade.graded.flatMap(classDetails),
		'',
		stamps,
		...grade.refused.map((entry) => `not graded: ${oneLine(entry.path)}: ${oneLine(entry.reason)}`),
		...grade.unchecked.map(
			(folder) => `not graded: exercise ${folder} has no checks yet (grader/checks/${folder}.held.ts)`
		),
		grade.sandbox.bwrap
			? `sandbox: bubblewrap, memory and processes limited by ${grade.sandbox.memoryLimit === 'cgroup' ? 'a cgroup' : 'prlimit (address space)'}`
			: 'sandbox: NONE (--unsafe-no-sandbox): learner code ran unsealed',
		grade.sandbox.strace
			? 'tracer: strace, outside the sandbox: code that tries to reach outside it scores 0 on that exercise'
			: `tracer: NONE${grade.sandbox.bwrap ? ' (--untraced)' : ''}: attempts that fail quietly are not seen`,
		...clustersLine(grade.clusters ?? []),
		goLine ?? 'Go reference: not run (--no-go)',
		`${grade.graded.length} submissions, ${grade.runs} exercise runs, ${grade.seconds.toFixed(1)} s`
	].join('\n');
}

// How the runs' PostgreSQL clusters were made, when a run had one (grader/sandbox/overlay.ts says when each).
const clusterWays = {
	overlay: "an overlay on the grading's base (nothing copied)",
	copy: "a copy of the grading's base (no overlay here)"
};
const clustersLine = (ways: ('overlay' | 'copy')[]) =>
	ways.length ? [`PostgreSQL: a cluster per run, ${ways.map((way) => clusterWays[way]).join(', or ')}`] : [];

// "[██████░░░░░░] 12/40 alice 02"; redrawn on one line when the terminal is a TTY.
export function progressBar(done: number, total: number, label: string, width = 24): string {
	const filled = total ? Math.round((done / total) * width) : 0;
	return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${label}`;
}
