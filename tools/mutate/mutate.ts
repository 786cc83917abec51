// npm run mutate: StrykerJS mutates solutions/, plays the exercises' tests against each mutant, and this
// prints the mutation score per exercise and overall. Survivors must be listed as equivalent, with why.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bin } from '../../lib/run.ts';
import { isMain } from '../../lib/main-module.ts';

export type Mutant = {
	mutatorName: string;
	replacement: string;
	status: string;
	location: { start: { line: number; column: number }; end: { line: number; column: number } };
};
export type Report = { files: Record<string, { source: string; mutants: Mutant[] }> };
export type Equivalent = {
	file: string;
	mutator: string;
	original: string;
	replacement: string;
	why: string;
};
export type Survivor = { file: string; line: number; mutator: string; original: string; replacement: string };
export type Score = {
	exercise: string;
	detected: number;
	undetected: number;
	survivors: Survivor[];
	timedOut: Survivor[];
};

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const reportPath = here('../../reports/mutation/mutation.json');
export const equivalentPath = here('./equivalent-mutants.json');
export const target = 90;

// Killed mutants are detected; survivors and mutants no test reaches are not. A time-out is neither: on a busy
// machine a mutant the tests cannot tell apart times out as well as one they kill, so it is left out of the
// score, named, and never fails the run (nor makes an equivalent entry look stale).
const detected = new Set(['Killed']);
const undetected = new Set(['Survived', 'NoCoverage']);
const undecided = new Set(['Timeout']);

// The source text a mutant replaced.
function originalText(source: string, { start, end }: Mutant['location']): string {
	const lines = source.split('\n');
	if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
	const middle = lines.slice(start.line, end.line - 1);
	return [
		lines[start.line - 1]!.slice(start.column - 1),
		...middle,
		lines[end.line - 1]!.slice(0, end.column - 1)
	].join('\n');
}

// solutions/02-same-event/handler.ts belongs to 02-same-event.
const exerciseOf = (file: string) => file.split('/')[1] ?? file;

export function scores(report: Report): Score[] {
	const byExercise = new Map<string, Score>();
	for (const [file, { source, mutants }] of Object.entries(report.files)) {
		const exercise = exerciseOf(file);
		const empty = { exercise, detected: 0, undetected: 0, survivors: [], timedOut: [] };
		const score = byExercise.get(exercise) ?? empty;
		byExercise.set(exercise, score);
		for (const mutant of mutants) {
			if (detected.has(mutant.status)) score.detected++;
			const { mutatorName: mutator, replacement, location } = mutant;
			const which = () => ({
				file,
				line: location.start.line,
				mutator,
				original: originalText(source, location),
				replacement
			});
			if (undecided.has(mutant.status)) score.timedOut.push(which());
			if (!undetected.has(mutant.status)) continue;
			score.undetected++;
			score.survivors.push(which());
		}
	}
	return [...byExercise.values()].sort((a, b) => a.exercise.localeCompare(b.exercise));
}

export const percent = (detected: number, undetected: number) =>
	detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);

export const explains = (equivalent: Equivalent, survivor: Survivor) =>
	equivalent.file === survivor.file &&
	equivalent.mutator === survivor.mutator &&
	equivalent.original === survivor.original &&
	equivalent.replacement === survivor.replacement;

export function readEquivalents(path = equivalentPath): Equivalent[] {
	const list = (JSON.parse(readFileSync(path, 'utf8')) as { equivalent: Equivalent[] }).equivalent;
	list.forEach((entry, i) => {
		for (const field of ['file', 'mutator', 'original', 'replacement', 'why'] as const) {
			if (typeof entry[field] !== 'string' || (field === 'why' && !entry.why.trim()))
				throw new Error(`tools/mutate/equivalent-mutants.json: equivalent[${i}].${field}: must be a string`);
		}
	});
	return list;
}

// The lines `npm run mutate` prints, and whether the run meets the target.
export function summary(report: Report, equivalents: Equivalent[]): { lines: string[]; ok: boolean } {
	const lines: string[] = [];
	let ok = true;
	const all = scores(report);
	const said = (survivor: Survivor) =>
		`${survivor.file}:${survivor.line} ${survivor.mutator}: ${JSON.stringify(survivor.original)} → ${JSON.stringify(survivor.replacement)}`;
	for (const score of all) {
		const unexplained = score.survivors.filter((s) => !equivalents.some((e) => explains(e, s)));
		const equivalent = score.survivors.length - unexplained.length;
		// Like Stryker's own "disable" comments, a mutant listed as equivalent is left out of the score.
		const value = percent(score.detected, score.undetected - equivalent);
		const raw = percent(score.detected, score.undetected);
		const pass = value >= target && unexplained.length === 0;
		ok &&= pass;
		lines.push(
			`${pass ? '✔' : '✘'} ${score.exercise}: ${value.toFixed(1)}% (${score.detected} of ${score.detected + score.undetected} mutants killed, ${equivalent} listed as equivalent${score.timedOut.length ? `, ${score.timedOut.length} timed out` : ''}; ${raw.toFixed(1)}% counting those)`
		);
		for (const survivor of unexplained)
			lines.push(`    survived, not listed as equivalent: ${said(survivor)}`);
		for (const mutant of score.timedOut)
			lines.push(`    timed out (neither killed nor survived): ${said(mutant)}`);
	}
	const detectedAll = all.reduce((sum, s) => sum + s.detected, 0);
	const undetectedAll = all.reduce((sum, s) => sum + s.undetected, 0);
	const survivors = all.flatMap((score) => score.survivors);
	const equivalentAll = survivors.filter((s) => equivalents.some((e) => explains(e, s))).length;
	lines.push(
		`mutation score: ${percent(detectedAll, undetectedAll - equivalentAll).toFixed(1)}% overall (${detectedAll} of ${detectedAll + undetectedAll} killed, ${equivalentAll} equivalent; ${percent(detectedAll, undetectedAll).toFixed(1)}% counting those); target ${target}% per exercise`
	);
	// Only for the files this run mutated: `npm run mutate -- --mutate <file>` checks one exercise.
	const undecidedAll = all.flatMap((score) => score.timedOut);
	const staleEntries = equivalents.filter(
		(e) => e.file in report.files && ![...survivors, ...undecidedAll].some((s) => explains(e, s))
	);
	for (const stale of staleEntries) {
		lines.push(
			`    listed as equivalent but no longer survives (remove it): ${stale.file} ${stale.mutator} ${JSON.stringify(stale.original)}`
		);
		ok = false;
	}
	return { lines, ok };
}

if (isMain(import.meta.url)) {
	const config = here('./stryker.config.mjs');
	const stryker = spawnSync(bin('stryker'), ['run', config, ...process.argv.slice(2)], { stdio: 'inherit' });
	if (stryker.status !== 0 || !existsSync(reportPath)) {
		console.error(`mutate: Stryker did not finish (exit ${stryker.status})`);
		process.exit(1);
	}
	const { lines, ok } = summary(JSON.parse(readFileSync(reportPath, 'utf8')) as Report, readEquivalents());
	console.log(['', ...lines, 'HTML report: reports/mutation/index.html'].join('\n'));
	process.exitCode = ok ? 0 : 1;
}
