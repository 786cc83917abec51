// What `npm test exercises/NN` prints (learner/loop-reporter.ts): one screen, never a wall.
//
// The first failing test in full (its story, the side-by-side table, where it is), one line for each other
// failing test, a stub that is not written yet said once, then the count and what to do next; above them, what
// a passing test printed (03's prediction prints the race step by step). It fits a terminal of 100 columns and
// 40 lines, npm's own lines included, with one exception: one story that is longer than the room the rest
// leaves it, but fits a screen by itself, is shown whole rather than cut: the first failure's (03's race told
// step by step), or, when that fits, what a passing test printed. Green names the next exercise.
import type { Exercise } from '#harness/core/manifest.ts';
import { screenColumns, storyIndent } from '#harness/core/report.ts';
import { nextSteps, noPaint, type Paint } from './progress.ts';
import { notAsShipped, saidTestFile, testFileRule, type TestFile } from './shipped.ts';
import { saidTypeError, typeRule, type TypeError } from './types.ts';

export const screen = { columns: screenColumns, lines: 40 };
// npm's two "> …" lines and the blank lines around them, the blank lines around ours, and the shell's prompt
// after: not ours to spend.
const npmLines = 7;
// A story that fits a screen by itself, under its title and above the prompt, is never cut (one a report).
export const wholeStory = screen.lines - 2;

export type LoopTest = {
	// The test's name below the exercise's heading, its describe blocks joined with " › ".
	name: string;
	file: string;
	state: 'passed' | 'failed' | 'skipped';
	givenCode: boolean;
	// What a failed test said: its message, and Vitest's diff when it has one.
	message?: string;
	// "exercises/04-send-button-key/submission.test.ts:57", when Vitest knows the line.
	at?: string;
	// What the test printed (console.log), without colours: its first printedKept characters.
	printed?: string;
	// How many characters more it printed, counted and not kept.
	printedMore?: number;
};

// The loop keeps the first few KB of what each test printed, and counts the rest: a test that prints a
// megabyte a call costs the report no more than one that prints a line.
export const printedKept = 4096;
export type Printed = { text: string; more: number };
export function keepPrinted(kept: Printed = { text: '', more: 0 }, content: string): Printed {
	const room = Math.max(0, printedKept - kept.text.length);
	const more = kept.more + Math.max(0, content.length - room);
	return { text: room ? kept.text + content.slice(0, room) : kept.text, more };
}

export type LoopExercise = {
	exercise: Exercise;
	tests: LoopTest[];
	// A test file that did not load (a syntax error, a missing export): it has no tests to show.
	broken: { file: string; message: string }[];
	// What the compiler said about the exercise's files (learner/types.ts): any makes it red.
	typeErrors?: TypeError[];
	// Its test files that are not as shipped (learner/shipped.ts): changed, missing or extra; any makes it red.
	testFiles?: TestFile[];
	// Tests its shipped test files hold that this run has no result for (a file that did not load, is not as
	// shipped, or a filter left out): counted, never as passing.
	unplayed?: number;
	// Its test files a filter left out (a path such as exercises/03-the-race/atomic.test.ts).
	filteredOut?: string[];
	// An answer handed on, imported where it is the exercise (learner/borrowed.ts): any makes it red.
	borrowed?: string[];
};

export type LoopOptions = { paint?: Paint; next?: Exercise; filtered?: boolean; watching?: boolean };

// The key that moves `npm run watch` on to the next exercise once this one is green, and the exit status with
// which the watch run says so: learner/watch.ts then watches the next exercise.
export const nextKey = 'n';
export const movingOn = 3;

// Whether the report calls the run green: no red test, and every test ran (no filter left one out).
export const calledGreen = (results: LoopExercise[], options: LoopOptions = {}) =>
	results.length > 0 &&
	results.every(isGreen) &&
	!options.filtered &&
	results.every((r) => counts(r).skipped === 0);

// "TicketHandler.handle" when a test stopped at a stub, from the first line todo() writes.
export const stubOf = (message = '') =>
	/(?:^|\s)([A-Za-z_$][\w$.]*) is not written yet\./m.exec(message)?.[1];

// Splits a line longer than the screen at its last space that fits, and indents what follows. It reads the
// line once, a screen at a time, however long it is.
export function wrap(line: string, width = screen.columns): string[] {
	if (line.length <= width) return [line];
	const indent = `${/^\s*/.exec(line)![0]}    `.slice(0, 24);
	const out: string[] = [];
	let [from, lead] = [0, ''];
	while (line.length - from + lead.length > width) {
		const room = width - lead.length;
		const space = line.slice(from, from + room + 1).lastIndexOf(' ');
		const cut = space >= 0 && space + lead.length > indent.length ? space : room;
		out.push((lead + line.slice(from, from + cut)).trimEnd());
		from += cut;
		while (from < line.length && /\s/.test(line[from]!)) from++;
		lead = indent;
	}
	return [...out, lead + line.slice(from)];
}

const wrapAll = (lines: string[]) => lines.flatMap((line) => wrap(line));

export function formatLoop(results: LoopExercise[], options: LoopOptions = {}): string {
	const paint = options.paint ?? noPaint;
	const budget = screen.lines - npmLines;
	const red = results.find(isRed);
	const head = results.length > 1 ? results.map((r) => `  ${summary(r, paint, options.filtered)}`) : [];
	if (!red) return [...head, ...(head.length ? [''] : []), ...green(results, options, paint)].join('\n');
	const lines = [
		...head,
		...(head.length ? [''] : []),
		...failing(red, budget - head.length - 1, options, paint)
	];
	return lines.join('\n');
}

// The learner's own tests, and the given code's that fail; given code's green tests apart. The total is what
// the shipped test files hold, whatever ran.
export function counts(result: LoopExercise) {
	const mine = result.tests.filter((t) => !t.givenCode || t.state === 'failed');
	const passed = mine.filter((t) => t.state === 'passed').length;
	const failed = mine.filter((t) => t.state === 'failed').length;
	const skipped = mine.filter((t) => t.state === 'skipped').length;
	const given = result.tests.filter((t) => t.givenCode && t.state === 'passed').length;
	return {
		passed,
		failed,
		skipped,
		given,
		ran: passed + failed,
		total: mine.length + (result.unplayed ?? 0)
	};
}

export const isRed = (result: LoopExercise) =>
	counts(result).failed > 0 ||
	result.broken.length > 0 ||
	!!result.typeErrors?.length ||
	!!result.testFiles?.length ||
	!!result.borrowed?.length;
// Some of its tests did not run: a filter (-t, --bail, a file's path) left them out.
export const isFiltered = (result: LoopExercise) =>
	counts(result).skipped > 0 || !!result.filteredOut?.length;
export const isGreen = (result: LoopExercise) => !isRed(result) && !isFiltered(result) && !result.unplayed;
// Whether to say "filtered": a filter was given, or left tests out of a run that went well. A test file stopped
// by a hang also leaves its later tests unrun, but that run is red, and says why.
export const saysFiltered = (result: LoopExercise, filtered = false) =>
	filtered || !!result.filteredOut?.length || (!isRed(result) && counts(result).skipped > 0);

function summary(result: LoopExercise, paint: Paint, filtered?: boolean): string {
	const { passed, total, given, ran } = counts(result);
	const mark = isGreen(result) ? paint.green('✔') : isRed(result) ? paint.red('✘') : '○';
	const name = `${result.exercise.id} · ${result.exercise.title}`;
	const onGiven = given ? paint.dim(` (+${given} on given code)`) : '';
	const types = result.typeErrors?.length ? paint.red(` · ${result.typeErrors.length} type errors`) : '';
	const files = result.testFiles?.length ? paint.red(` · ${notAsShipped(result.testFiles)}`) : '';
	const borrowed = result.borrowed?.length ? paint.red(' · an answer not yet given') : '';
	const count = saysFiltered(result, filtered)
		? `filtered: ${ran} of ${total} tests ran, ${passed} ${passed === 1 ? 'passes' : 'pass'}`
		: `${passed} of ${total} tests pass`;
	return `${mark} ${name}: ${count}${types}${files}${borrowed}${onGiven}`;
}

function green(results: LoopExercise[], options: LoopOptions, paint: Paint): string[] {
	const left = results.reduce((sum, r) => sum + counts(r).total - counts(r).ran, 0);
	const last = results.at(-1)!;
	if (left || options.filtered || results.some(isFiltered)) {
		const { id } = last.exercise;
		return wrapAll([
			results.length === 1 ? summary(last, paint, options.filtered) : 'Every test that ran passes.',
			`${left} tests did not run (a filter such as -t or --bail left them out): run \`npm test exercises/${id}\` for them all.`
		]);
	}
	const done = results.map((r) => r.exercise.id).join(', ');
	const head = results.length === 1 ? [summary(last, paint)] : [];
	const lines = ['', paint.green(`${done} ${results.length === 1 ? 'is' : 'are'} green.`)];
	if (options.next) {
		lines.push('', ...nextSteps({ exercise: options.next, passed: 0, total: 1 }, paint));
		const { id, title } = options.next;
		const stay = last.exercise.id;
		if (options.watching)
			lines.push(
				'',
				paint.green(`Press ${nextKey} to move on to ${id} · ${title}, or save again to stay on ${stay}.`)
			);
	} else
		lines.push(
			'That was the last exercise. `npm run progress` checks them all at once and says what to read next.'
		);
	const rest = wrapAll(lines);
	const heads = results.length > 1 ? results.length + 1 : 0;
	const room = screen.lines - npmLines - heads - head.length - rest.length - 1;
	const printed = printedBy(
		results.flatMap((r) => r.tests),
		room,
		paint
	);
	return [...head, ...(printed.length ? ['', ...printed.slice(0, -1)] : []), ...rest];
}

// What passing tests of the learner's own printed, each whole under its name, as far as `room` lets, and the
// first one whole when it fits a screen by itself and nothing else ran past the screen (03's prediction, right,
// prints the race step by step). One that does not fit gets a line that names the command that shows it. Tests
// of given code print nothing here. Ends with a blank line when it says anything.
function printedBy(tests: LoopTest[], room: number, paint: Paint): string[] {
	const printing = tests.filter((t) => t.state === 'passed' && !t.givenCode && t.printed);
	const lines: string[] = [];
	// When nothing else ran past the screen, the first one's story is whole even if the screen cannot hold it.
	let overflow = room >= 0 ? wholeStory : 0;
	for (const test of printing) {
		// Vitest's own report, on the test's file alone, shows everything it printed.
		const command = `npm test ${test.file} -- --all`;
		const more = test.printedMore
			? [`  … and ${test.printedMore} more characters: \`${command}\` shows them all`]
			: [];
		const block = wrapAll([
			`${paint.green('✔')} ${test.name}`,
			...test.printed!.split('\n').map((l) => `  ${l}`),
			...more,
			''
		]);
		if (lines.length + block.length <= room || block.length <= overflow) {
			lines.push(...block);
			overflow = 0;
			continue;
		}
		const leaf = test.name.split(' › ').at(-1);
		const said = wrapAll([
			`${paint.green('✔')} ${leaf}: it printed more than fits here; \`${command}\` shows it`,
			''
		]);
		if (lines.length === 0 || lines.length + said.length <= room) lines.push(...said);
		break;
	}
	return lines;
}

// The first failure in full, the others a line each, and what to do next, fitted to the budget of lines.
function failing(result: LoopExercise, budget: number, options: LoopOptions, paint: Paint): string[] {
	const { id } = result.exercise;
	const full = `npm test exercises/${id} -- --all`;
	const failed = result.tests.filter((t) => t.state === 'failed');
	const first = firstFailure(result, failed);
	const count = wrapAll([summary(result, paint, options.filtered), '']);
	const top = wrapAll([
		`${paint.red('First failure:')} ${first.title}`,
		...(first.where ? [paint.dim(`  at ${first.where}`)] : []),
		''
	]);
	const tail = wrapAll([
		'',
		options.watching
			? 'Next: fix it and save: the tests run again.'
			: `Next: fix it and run \`npm test exercises/${id}\` again (\`npm run watch -- ${id}\` runs it on every save).`,
		`Stuck? \`npm run hint -- ${id}\` · every failure in full: \`${full}\``
	]);
	const firstIsATest =
		!result.broken[0] && !result.typeErrors?.length && !result.testFiles?.length && !result.borrowed?.length;
	const firstStub = firstIsATest ? stubOf(first.message) : undefined;
	const others = otherFailures(failed.slice(firstIsATest ? 1 : 0), firstStub, paint.red('✘'));
	const room = budget - count.length - top.length - tail.length;
	const otherCount = failed.length - (firstIsATest ? 1 : 0);
	const story = messageAndOthers(first.message, { lines: others, count: otherCount }, room, full);
	const printed = printedBy(result.tests, room - story.length, paint);
	return [...count, ...printed, ...top, ...story, ...tail];
}

type Failure = { title: string; where: string; message: string };

const givenRule = (id: string) =>
	`The harness hands that answer to the exercises after it; in ${id} it is the exercise, and tests it passes do not count. Write it in your file.`;

// Test files not as shipped come first, then an answer not yet given (tests passing on it say nothing), then
// the compiler's errors, then a test file that did not load; else the first failing test.
function firstFailure(result: LoopExercise, failed: LoopTest[]): Failure {
	const files = result.testFiles ?? [];
	if (files.length) {
		const message = [...files.map(saidTestFile), '', testFileRule(result.exercise.id)].join('\n');
		return { title: `the tests are not the ones ${result.exercise.id} ships`, where: '', message };
	}
	const [borrowed, ...more] = result.borrowed ?? [];
	if (borrowed) {
		const file = borrowed.split(' ')[0];
		const message = [borrowed, ...more, '', givenRule(result.exercise.id)].join('\n');
		return { title: `${file} imports an answer the harness gives only later`, where: '', message };
	}
	const types = result.typeErrors ?? [];
	if (types.length) {
		const files = [...new Set(types.map((error) => error.file))].join(', ');
		const message = [...types.map(saidTypeError), '', typeRule(result.exercise.id)].join('\n');
		return { title: `the compiler finds type errors in ${files}`, where: '', message };
	}
	const [broken] = result.broken;
	if (broken) return { title: `${broken.file} did not load`, where: '', message: broken.message };
	const [test] = failed;
	return { title: test!.name, where: test!.at ?? test!.file, message: test!.message ?? '' };
}

// The other failures, a line each: a stub not written yet once, with how many tests stop at it; any other
// test by its name, under its describe blocks.
function otherFailures(tests: LoopTest[], firstStub: string | undefined, cross: string): string[] {
	const stubs = new Map<string, number>();
	const others: ({ stub: string } | { parent: string; leaf: string })[] = [];
	for (const test of tests) {
		const stub = stubOf(test.message);
		if (stub) stubs.set(stub, (stubs.get(stub) ?? 0) + 1);
		if (stub && stubs.get(stub)! > 1) continue;
		const path = test.name.split(' › ');
		others.push(stub ? { stub } : { parent: path.slice(0, -1).join(' › '), leaf: path.at(-1)! });
	}
	const lines: string[] = [];
	let under = '';
	for (const other of others) {
		if ('stub' in other) {
			const count = stubs.get(other.stub)!;
			const more = other.stub === firstStub ? ' more' : '';
			const tests = count === 1 ? 'test stops' : 'tests stop';
			lines.push(`  ${cross} ${count}${more} ${tests} at ${other.stub}, not written yet`);
			under = '';
			continue;
		}
		if (other.parent && other.parent !== under) lines.push(...wrap(`  ${other.parent}:`));
		under = other.parent;
		lines.push(...wrap(`${under ? '    ' : '  '}${cross} ${other.leaf}`));
	}
	return lines;
}

// The message comes first: the list of others keeps a few lines, and shows more when there is room. A message
// that fits a screen by itself is whole, and the list then shrinks to a line if it must.
function messageAndOthers(
	message: string,
	{ lines: others, count }: { lines: string[]; count: number },
	room: number,
	full: string
): string[] {
	const listNeed = others.length ? Math.min(others.length, 3) + 2 : 0;
	const lines = wrapAll(
		message
			.trimEnd()
			.split('\n')
			.map((l) => `${storyIndent}${l}`)
	);
	const shown = lines.length <= wholeStory ? lines : clip(lines, room - listNeed, full);
	const left = room - shown.length;
	const list: string[] = [];
	if (others.length && left >= 3) {
		list.push('', 'Also failing:');
		list.push(...clip(others, left - 2, full, 'and more'));
	} else if (others.length) {
		list.push('', `Also failing: ${count} more tests: \`${full}\` shows every failure in full`);
	}
	return [...shown, ...list];
}

// At most `count` lines; the last one says how many more there are and where to see them.
function clip(lines: string[], count: number, full: string, more?: string): string[] {
	if (lines.length <= count) return lines;
	const kept = lines.slice(0, Math.max(count - 1, 0));
	const said = more ?? `${lines.length - kept.length} more lines`;
	return [...kept, `  … ${said}: \`${full}\` shows every failure in full`];
}
