// What `npm run progress` prints: every exercise green or red, and the one to do next.
import type { Exercise } from '#harness/core/manifest.ts';
import { notAsShipped } from './shipped.ts';

export type ExerciseResult = {
	exercise: Exercise;
	passed: number;
	total: number;
	// Green tests of code the exercise gives (03's separate.ts, 05's send-inside.ts): shown apart, never counted.
	given?: number;
	// The first red test, in the order the file runs them, and the start of what it said.
	firstRed?: { test: string; message: string };
	// How many type errors the compiler finds in the exercise's files (learner/types.ts): any makes it red.
	typeErrors?: number;
	// Its test files not as shipped (learner/shipped.ts), "handler.test.ts (changed)": any makes it red.
	testFiles?: string[];
	// How many of its tests ran, when a filter left some out: it is then not green.
	ran?: number;
};

export type Paint = {
	green: (text: string) => string;
	red: (text: string) => string;
	dim: (text: string) => string;
};
export const noPaint: Paint = { green: (t) => t, red: (t) => t, dim: (t) => t };

// Colours for a terminal that shows them; none when NO_COLOR is set or the output is not a terminal.
const colour = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`;
export const terminalPaint: Paint =
	process.stdout.isTTY && !process.env.NO_COLOR
		? { green: colour(32), red: colour(31), dim: colour(2) }
		: noPaint;

// A test as the reports name it: its describe blocks and title, without the exercise's heading.
export const testName = (test: { fullName: string }) => test.fullName.split(' > ').slice(1).join(' › ');

export const isGreen = (result: ExerciseResult) =>
	result.total > 0 &&
	result.passed === result.total &&
	!result.typeErrors &&
	!result.testFiles?.length &&
	result.ran === undefined;

// The first few lines of a failure, each short enough to read in a terminal.
export function firstLines(message: string, count = 2, width = 110): string[] {
	const paragraph = message.trim().split(/\n\s*\n/)[0] ?? '';
	return paragraph
		.split('\n')
		.slice(0, count)
		.map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line));
}

export function formatProgress(
	results: ExerciseResult[],
	options: { goFolder: boolean; paint?: Paint }
): string {
	const paint = options.paint ?? noPaint;
	const green = results.filter(isGreen).length;
	const passed = results.reduce((sum, r) => sum + r.passed, 0);
	const total = results.reduce((sum, r) => sum + r.total, 0);
	const next = results.find((r) => !isGreen(r));
	const width = Math.max(...results.map((r) => `${r.exercise.id} · ${r.exercise.title}`.length));
	const countWidth = Math.max(...results.map((r) => `${r.passed}/${r.total}`.length));
	const rows = results.map((r) => {
		const mark = isGreen(r) ? paint.green('✔') : paint.red('✘');
		const count = r.total === 0 ? 'no tests ran' : `${r.passed}/${r.total}`.padStart(countWidth);
		const filtered = r.ran === undefined ? '' : `  filtered: ${r.ran} of ${r.total} ran`;
		const files = r.testFiles?.length ? paint.red(`  ${notAsShipped(r.testFiles)}`) : '';
		const given = r.given ? paint.dim(`  (+${r.given} on given code)`) : '';
		const types = r.typeErrors ? paint.red(`  ${r.typeErrors} type errors`) : '';
		const pointer = r === next ? '   ← next' : '';
		return `  ${mark} ${`${r.exercise.id} · ${r.exercise.title}`.padEnd(width)}  ${count}${filtered}${files}${types}${given}${pointer}`;
	});
	const head = `${green} of ${results.length} exercises green · ${passed} of ${total} tests pass`;
	// Each exercise whose tests are not as shipped, by name: next's are said below, as its first red.
	const notShipped = results
		.filter((r) => r.testFiles?.length && r !== next)
		.map(
			(r) =>
				`  ${r.exercise.id}: ${r.testFiles!.join(', ')}: \`npm run reset -- ${r.exercise.id}\` puts its tests back`
		);
	const lines = [head, '', ...rows, ...(notShipped.length ? ['', ...notShipped] : []), ''];
	if (next) lines.push(...nextSteps(next, paint));
	else lines.push(...allGreen(options.goFolder));
	return lines.join('\n');
}

export function nextSteps(next: ExerciseResult, paint: Paint): string[] {
	const { id, folder, title, learnerFiles } = next.exercise;
	const lines = [`Next: ${id} · ${title}`];
	if (next.firstRed) {
		lines.push(`  first red test: ${next.firstRed.test}`);
		lines.push(...firstLines(next.firstRed.message).map((line) => paint.dim(`    ${line}`)));
	} else if (next.total === 0) {
		lines.push(`  its tests did not run: see what \`npm test exercises/${id}\` says`);
	}
	lines.push(
		`  read   exercises/${folder}/README.md`,
		`  edit   ${learnerFiles.map((file) => `exercises/${folder}/${file}`).join(', ')}`,
		`  run    npm test exercises/${id}    (or \`npm run watch -- ${id}\` to run it on every save)`,
		`  stuck? npm run hint -- ${id}`
	);
	return lines;
}

function allGreen(goFolder: boolean): string[] {
	const lines = [
		'Every exercise is green: twice now counts once.',
		'',
		'What to read next:',
		'  solutions/   the workbook’s version of each file you wrote; compare it with yours, line by line'
	];
	if (goFolder)
		lines.push('  go/          the same handlers in Go, playing the same schedules (cd go && go test ./...)');
	lines.push(
		'',
		'Before you move on, write down in a sentence each: why a lost acknowledgment made a second ticket,',
		'why checking for a receipt before saving still let two workers make two tickets, and one request',
		'in your own code that could arrive twice.'
	);
	return lines;
}
