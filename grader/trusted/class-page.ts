// grades/class.html: one self-contained page for the instructor (no server, no file or request beyond itself):
// the learners × exercises grid, then for each exercise the mistakes the class made, counted, with who made
// each, and the failures no named mistake explains, grouped by the first input they went another way on.
//
//   writeFileSync('grades/class.html', classPage(viewOfGrade(grade, 'bubblewrap')));
//
// Readable without colour: every cell says its points and a word (full, partly, none), and carries a pattern;
// every chart has a table of the same numbers under it. A learner's name is a button that opens their
// diagnosis (Enter or Space). Everything a learner chose (names, messages) is escaped.
import { saidDiagnosis, type Diagnosis } from './diagnose.ts';
import type { Cell, ClassView, LearnerRow } from './class-view.ts';
import { pageScript, pageStyle } from './class-page-style.ts';

const escape = (text: string) =>
	text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
	);
const points = (n: number) => String(Math.round(n * 100) / 100);

function grade(cell: Cell): { kind: 'full' | 'partly' | 'none'; mark: string } {
	if (cell.max > 0 && cell.score >= cell.max) return { kind: 'full', mark: '✔' };
	return cell.score > 0 ? { kind: 'partly', mark: '◐' } : { kind: 'none', mark: '✘' };
}

// What went wrong in one exercise, in a sentence for the instructor.
function diagnosisText(diagnosis: Diagnosis): string {
	switch (diagnosis.kind) {
		case 'mistake': {
			const lesson = diagnosis.lesson ? ` The lesson: ${diagnosis.lesson}.` : '';
			const hint = diagnosis.hint ? ` Hint ${diagnosis.hint} points the way.` : '';
			return `${saidDiagnosis(diagnosis)}. ${diagnosis.mistake}.${lesson}${hint}`;
		}
		case 'unnamed':
			return `${saidDiagnosis(diagnosis)}${diagnosis.first.problem ? `: ${diagnosis.first.problem}` : ''}`;
		default:
			return saidDiagnosis(diagnosis);
	}
}

function gridRow(row: LearnerRow, n: number, view: ClassView): string {
	const cells = row.cells.map((cell) => {
		const { kind, mark } = grade(cell);
		const word = kind === 'partly' ? 'partly' : kind;
		return `<td class="cell ${kind}"><span aria-hidden="true">${mark}</span> ${points(cell.score)}/${points(cell.max)} <span class="word">${word}</span></td>`;
	});
	const said = row.cells
		.filter((cell) => cell.diagnosis)
		.map((cell) => {
			const title = view.exercises.find((e) => e.id === cell.id)?.title ?? '';
			return `<li><strong>${escape(`${cell.id} · ${title}`)}</strong>: ${escape(diagnosisText(cell.diagnosis!))}</li>`;
		});
	const details = said.length
		? `<ul>${said.join('')}</ul>`
		: '<p>Every exercise full, or nothing to say.</p>';
	return [
		`<tr><th scope="row"><button type="button" class="learner" aria-expanded="false" aria-controls="learner-${n}">${escape(row.learner)}</button></th>${cells.join('')}<td>${points(row.score)}/${points(row.max)}</td></tr>`,
		`<tr id="learner-${n}" class="details" hidden><td colspan="${row.cells.length + 2}">${details}</td></tr>`
	].join('\n');
}

function grid(view: ClassView): string {
	const head = view.exercises
		.map((e) => `<th scope="col"><abbr title="${escape(e.title)}">${escape(e.id)}</abbr></th>`)
		.join('');
	return `<table class="grid"><caption>Points per learner and exercise (press a name for that learner's diagnosis)</caption>
<thead><tr><th scope="col">learner</th>${head}<th scope="col">total</th></tr></thead>
<tbody>${view.learners.map((row, n) => gridRow(row, n, view)).join('\n')}</tbody></table>`;
}

type Group = { label: string; learners: string[] };

// The learners of one exercise, grouped by what their diagnosis says.
function groups(view: ClassView, id: string): { named: Group[]; unnamed: Group[]; unwritten: string[] } {
	const named = new Map<string, string[]>();
	const unnamed = new Map<string, string[]>();
	const unwritten: string[] = [];
	for (const row of view.learners) {
		const diagnosis = row.cells.find((cell) => cell.id === id)?.diagnosis;
		if (!diagnosis) continue;
		if (diagnosis.kind === 'mistake')
			named.set(diagnosis.name, [...(named.get(diagnosis.name) ?? []), row.learner]);
		else if (diagnosis.kind === 'unwritten') unwritten.push(row.learner);
		else {
			const key = `"${diagnosis.first.check}", case ${diagnosis.first.case} of ${diagnosis.first.of}`;
			unnamed.set(key, [...(unnamed.get(key) ?? []), row.learner]);
		}
	}
	const sorted = (map: Map<string, string[]>) =>
		[...map]
			.map(([label, learners]) => ({ label, learners }))
			.sort((a, b) => b.learners.length - a.learners.length);
	return { named: sorted(named), unnamed: sorted(unnamed), unwritten };
}

function chart(title: string, rows: Group[], total: number): string {
	const bars = rows
		.map(({ label, learners }) => {
			const width = total ? Math.round((learners.length / total) * 100) : 0;
			return `<div class="bar"><span class="label">${escape(label)}</span><span class="track"><span class="fill" style="width:${width}%"></span></span><span class="count">${learners.length}</span></div>`;
		})
		.join('');
	const table = rows
		.map(
			({ label, learners }) =>
				`<tr><th scope="row">${escape(label)}</th><td>${learners.length}</td><td>${learners.map(escape).join(', ')}</td></tr>`
		)
		.join('');
	return `<div class="chart" aria-hidden="true">${bars}</div>
<table class="counts"><caption>${escape(title)}</caption><thead><tr><th scope="col">what</th><th scope="col">learners</th><th scope="col">who</th></tr></thead><tbody>${table}</tbody></table>`;
}

function exerciseSection(view: ClassView, exercise: { id: string; title: string }): string {
	const { named, unnamed, unwritten } = groups(view, exercise.id);
	const total = view.learners.length;
	const full = view.learners.filter((row) => {
		const cell = row.cells.find((c) => c.id === exercise.id);
		return cell && grade(cell).kind === 'full';
	}).length;
	const parts = [
		`<h2 id="exercise-${escape(exercise.id)}">${escape(`${exercise.id} · ${exercise.title}`)}</h2>`,
		`<p>${full} of ${total} full. ${named.reduce((n, g) => n + g.learners.length, 0)} made a named mistake, ${unnamed.reduce((n, g) => n + g.learners.length, 0)} another one, ${unwritten.length} left it unwritten${unwritten.length ? ` (${unwritten.map(escape).join(', ')})` : ''}.</p>`
	];
	if (named.length) parts.push(chart(`${exercise.id}: the named mistakes the class made`, named, total));
	if (unnamed.length)
		parts.push(
			chart(
				`${exercise.id}: not one of the named mistakes, by the first input that went another way`,
				unnamed,
				total
			)
		);
	return `<section aria-labelledby="exercise-${escape(exercise.id)}">${parts.join('\n')}</section>`;
}

export function classPage(view: ClassView): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Class report: idempotency-workbook</title>
<style>${pageStyle}</style>
</head>
<body>
<main>
<h1>Class report</h1>
<p class="stamps">${view.stamps.map(escape).join(' · ')} · ${view.learners.length} learners</p>
${grid(view)}
${view.exercises.map((exercise) => exerciseSection(view, exercise)).join('\n')}
</main>
<script>${pageScript}</script>
</body>
</html>
`;
}
