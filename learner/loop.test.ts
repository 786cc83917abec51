// The short report of `npm test exercises/NN`: one screen, whatever state the learner's files are in.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises, type Exercise } from '#harness/core/manifest.ts';
import { messageWidth, sideBySide } from '#harness/core/report.ts';
import { run } from '../lib/run.ts';
import { wrongSolutions, writeWrongSolution } from '../lib/wrong-solutions.ts';
import {
	formatLoop,
	keepPrinted,
	printedKept,
	screen,
	stubOf,
	wholeStory,
	wrap,
	type LoopTest,
	type Printed
} from './loop.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';

const one: Exercise = {
	id: '01',
	folder: '01-x',
	title: 'The first handler',
	learnerFiles: ['a.ts'],
	weight: 1
};
const two: Exercise = { ...one, id: '02', folder: '02-x', title: 'sameEvent and replay' };
const test = (name: string, state: LoopTest['state'], message?: string): LoopTest => ({
	name,
	file: 'exercises/01-x/a.test.ts',
	state,
	givenCode: false,
	...(message === undefined ? {} : { message })
});
const stub = 'TicketHandler.handle is not written yet.\n  write it in  exercises/01-x/a.ts';

describe('the short report', () => {
	it('says a stub once, with how many tests stop at it, and the first failure in full', () => {
		const text = formatLoop([
			{
				exercise: one,
				broken: [],
				tests: [test('first', 'failed', stub), test('second', 'failed', stub), test('third', 'failed', stub)]
			}
		]);
		expect(text).toContain('✘ 01 · The first handler: 0 of 3 tests pass');
		expect(text).toContain('First failure: first');
		expect(text.match(/is not written yet/g)).toHaveLength(1);
		expect(text).toContain('not written yet');
		expect(text).toContain('2 more tests stop at TicketHandler.handle, not written yet');
		expect(text).toContain('npm test exercises/01 -- --all');
		expect(text).toContain('npm run hint -- 01');
	});
	it('keeps a long story and many failures to one screen of 100 columns', () => {
		const story = Array.from({ length: 80 }, (_, i) => `line ${i} ${'of a long story '.repeat(9)}`).join(
			'\n'
		);
		const tests = Array.from({ length: 60 }, (_, i) => test(`describe › test ${i}`, 'failed', story));
		const text = formatLoop([{ exercise: one, broken: [], tests }]);
		const lines = text.split('\n');
		expect(lines.length).toBeLessThanOrEqual(screen.lines - 7);
		expect(lines.filter((line) => line.length > screen.columns)).toEqual([]);
		expect(text).toContain('more lines: `npm test exercises/01 -- --all` shows every failure in full');
	});
	it('shows a story that fits a screen by itself whole, and shrinks the list of others to a line', () => {
		const story = Array.from({ length: wholeStory }, (_, i) => `step ${i + 1}`).join('\n');
		const tests = Array.from({ length: 9 }, (_, i) => test(`describe › test ${i}`, 'failed', story));
		const lines = formatLoop([{ exercise: one, broken: [], tests }]).split('\n');
		for (let i = 1; i <= wholeStory; i++) expect(lines).toContain(`  step ${i}`);
		expect(lines.join('\n')).not.toContain('more lines:');
		expect(lines).toContain(
			'Also failing: 8 more tests: `npm test exercises/01 -- --all` shows every failure in full'
		);
		// Everything but the story still fits the screen's budget.
		expect(lines.length - wholeStory).toBeLessThanOrEqual(screen.lines - 7);
	});
	it('shows what a passing test printed above the first failure, whole when it fits, else where to read it', () => {
		const printed = (lines: number): LoopTest => ({
			...test('your prediction › it is right', 'passed'),
			file: 'exercises/01-x/p.test.ts',
			printed: Array.from({ length: lines }, (_, i) => `race step ${i + 1}`).join('\n')
		});
		const given: LoopTest = { ...test('given › pinned', 'passed'), givenCode: true, printed: 'not shown' };
		const short = formatLoop([
			{ exercise: one, broken: [], tests: [printed(5), given, test('second', 'failed', stub)] }
		]);
		expect(short.indexOf('✔ your prediction › it is right\n  race step 1')).toBeGreaterThan(0);
		expect(short.indexOf('race step 5')).toBeLessThan(short.indexOf('First failure: second'));
		expect(short).not.toContain('not shown');
		// Under a long first failure, the failure keeps its room and a line says where the output is.
		const story = Array.from({ length: 30 }, (_, i) => `failure line ${i}`).join('\n');
		const long = formatLoop([
			{ exercise: one, broken: [], tests: [printed(20), test('second', 'failed', story)] }
		]);
		expect(long).toContain('failure line 29');
		expect(long).not.toContain('race step 1');
		expect(long).toContain(
			'✔ it is right: it printed more than fits here; `npm test exercises/01-x/p.test.ts -- --all` shows it'
		);
		// Green has room for it whole.
		const green = formatLoop([{ exercise: one, broken: [], tests: [printed(20)] }], { next: two });
		expect(green).toContain('race step 20');
		expect(green).toContain('01 is green.');
	});
	it('keeps the first few KB of what a test printed, never more, and says in one line how much it left out', () => {
		let kept: Printed | undefined;
		for (let call = 0; call < 50; call++) kept = keepPrinted(kept, `${'x'.repeat(1_000_000)}\n`);
		expect(kept!.text.length).toBe(printedKept);
		expect(kept!.more).toBe(50 * 1_000_001 - printedKept);
		const huge: LoopTest = {
			...test('it prints', 'passed'),
			printed: kept!.text,
			printedMore: kept!.more
		};
		const text = formatLoop([{ exercise: one, broken: [], tests: [huge] }], { next: two });
		const lines = text.split('\n');
		expect(lines.length).toBeLessThanOrEqual(screen.lines - 7);
		expect(lines.filter((line) => line.length > screen.columns)).toEqual([]);
		// Too long to show here: one line says so, and names the command that shows it all.
		const said = lines.filter((line) => line.includes('it printed'));
		expect(said).toEqual([
			'✔ it prints: it printed more than fits here; `npm test exercises/01-x/a.test.ts -- --all` shows it'
		]);
		// Short enough to show whole, it is whole, with the line that says what is left out under it.
		const some = { ...huge, printed: 'a few lines\nof it', printedMore: 10 };
		const whole = formatLoop([{ exercise: one, broken: [], tests: [some] }], { next: two });
		expect(whole).toContain(
			'  of it\n  … and 10 more characters: `npm test exercises/01-x/a.test.ts -- --all` shows them all'
		);
	});
	it("shows a table as wide as a message may be under a failure's indent, each row on one line", () => {
		const row = (end: string, width: number) => {
			const line = `#2 acme: ${end}`;
			return `${line}${' '.repeat(Math.max(0, width - line.length))}→ #2`;
		};
		// The widest table sideBySide draws side by side: its every line exactly messageWidth long.
		const widest = (width: number) =>
			sideBySide([{ label: 'outbox', expected: [row('a', width)], actual: [row('b', width)] }]);
		let width = 20;
		const sideBySideStill = (table: string) =>
			!table.includes('under it') && table.split('\n').every((line) => line.length <= messageWidth);
		while (sideBySideStill(widest(width + 1))) width++;
		const table = widest(width);
		expect(table).not.toContain('your code on the line under it');
		expect(Math.max(...table.split('\n').map((line) => line.length))).toBe(messageWidth);
		const text = formatLoop([{ exercise: one, broken: [], tests: [test('first', 'failed', table)] }]);
		for (const line of table.split('\n')) expect(text.split('\n')).toContain(`  ${line}`.trimEnd());
		expect(text.split('\n').filter((line) => line.length > screen.columns)).toEqual([]);
	});
	it('wraps a line of a megabyte with no space in it at once, a screen wide', () => {
		const lines = wrap('x'.repeat(1_000_000));
		expect(lines).toHaveLength(Math.ceil((1_000_000 - screen.columns) / (screen.columns - 4)) + 1);
		expect(lines.every((line) => line.length <= screen.columns)).toBe(true);
		expect(lines.slice(1).every((line) => line.startsWith('    x'))).toBe(true);
	});
	it('when green, says so and names the next exercise and its commands', () => {
		const text = formatLoop([{ exercise: one, broken: [], tests: [test('first', 'passed')] }], { next: two });
		expect(text).toContain('01 is green.');
		expect(text).toContain('Next: 02 · sameEvent and replay');
		expect(text).toContain('npm test exercises/02');
		expect(text).toContain('npm run hint -- 02');
		expect(text).not.toContain('That was the last exercise');
		expect(text).not.toContain('Press n');
		const watching = formatLoop([{ exercise: one, broken: [], tests: [test('first', 'passed')] }], {
			next: two,
			watching: true
		});
		expect(watching).toContain(
			'Press n to move on to 02 · sameEvent and replay, or save again to stay on 01.'
		);
		const last = formatLoop([{ exercise: two, broken: [], tests: [test('first', 'passed')] }], {
			watching: true
		});
		expect(last).toContain('That was the last exercise.');
		expect(last).not.toContain('Press n');
	});
	it('does not call an exercise green, nor tick it, when a filter left tests out', () => {
		const tests = [test('first', 'passed'), test('second', 'skipped')];
		const text = formatLoop([{ exercise: one, broken: [], tests }], { next: two, filtered: true });
		expect(text).not.toContain('is green');
		expect(text).not.toContain('✔');
		expect(text).toContain('○ 01 · The first handler: filtered: 1 of 2 tests ran, 1 passes');
		expect(text).toContain('1 tests did not run');
	});
	it('calls an exercise red, its tests all passing, when it imports an answer given only later', () => {
		const said =
			"exercises/02-x/a.ts imports exercise 02's answer, handed on from 03: write your own (harness/core/replay.ts)";
		const text = formatLoop(
			[{ exercise: two, broken: [], tests: [test('first', 'passed')], borrowed: [said] }],
			{
				next: one
			}
		);
		expect(text).toContain('✘ 02 · sameEvent and replay: 1 of 1 tests pass · an answer not yet given');
		expect(text).toContain(
			'First failure: exercises/02-x/a.ts imports an answer the harness gives only later'
		);
		expect(text).toContain("imports exercise 02's answer, handed on from 03: write your own");
		expect(text).not.toContain('is green');
		expect(text.split('\n').filter((line) => line.length > screen.columns)).toEqual([]);
	});
	it('counts the tests of a shipped file that did not run, and given code’s skipped tests not at all', () => {
		const given = { ...test('given', 'skipped'), givenCode: true };
		const result = { exercise: one, broken: [], tests: [test('first', 'passed'), given], unplayed: 26 };
		const text = formatLoop([{ ...result, filteredOut: ['exercises/01-x/b.test.ts'] }], { next: two });
		expect(text).toContain('○ 01 · The first handler: filtered: 1 of 27 tests ran, 1 passes');
		expect(text).toContain('26 tests did not run');
		expect(text).not.toContain('✔');
	});
	it('calls an exercise red when a test file is not as shipped, whatever its tests say, and names reset', () => {
		const gutted = {
			file: 'exercises/01-x/a.test.ts',
			name: 'a.test.ts',
			state: 'changed' as const,
			tests: 16,
			givenCode: false
		};
		const result = { exercise: one, broken: [], tests: [], testFiles: [gutted], unplayed: 16 };
		const text = formatLoop([result], { next: two });
		expect(text).toContain('✘ 01 · The first handler: 0 of 16 tests pass · 1 test file not as shipped');
		expect(text).toContain('First failure: the tests are not the ones 01 ships');
		expect(text).toContain('a.test.ts is not as shipped: it was changed (it ships with 16 tests)');
		expect(text).toContain('npm run reset -- 01');
		expect(text).not.toContain('is green');
	});
	it('finds the stub in a message, and wraps at spaces', () => {
		expect(stubOf('A journey broke: your code threw: submissions is not written yet.')).toBe('submissions');
		expect(stubOf('expected 1 to be 2')).toBeUndefined();
		const wrapped = wrap(`  ${'word '.repeat(50)}`);
		expect(wrapped.length).toBeGreaterThan(1);
		expect(wrapped.every((line) => line.length <= screen.columns)).toBe(true);
	});
});

// Every exercise as shipped, half done and green, run as the learner runs it, in a throwaway copy.
describe('npm test exercises/NN, on a copy of the workbook', () => {
	const npmTest = (root: string, ...args: string[]) =>
		run('npm', ['test', ...args, '--', `--experimental.fsModuleCachePath=${root}/.cache`], {
			cwd: root,
			env: { ...process.env, NO_COLOR: '1' }
		});
	// Half done: the first wrong solution of each exercise over its files; any other learner file as shipped.
	const halfDone = (root: string) => {
		for (const exercise of exercises(root)) {
			const wrong = wrongSolutions().find((w) => w.exercise === exercise.id);
			if (wrong) writeWrongSolution(wrong, join(root, 'exercises'));
		}
	};
	const states: [string, (root: string) => void][] = [
		['as shipped', () => {}],
		['half done', halfDone],
		['green', (root) => exercises(root).forEach((e) => solve(root, e.folder, e.learnerFiles))]
	];

	it.each(states)(
		'fits one screen of 100 × 40 for every exercise %s',
		async (state, prepare) => {
			const { root, remove } = tempWorkbook();
			try {
				prepare(root);
				const list = exercises(root);
				for (const [i, exercise] of list.entries()) {
					const ran = await npmTest(root, `exercises/${exercise.id}`);
					const lines = ran.output.trimEnd().split('\n');
					const where = `npm test exercises/${exercise.id} ${state}:\n${ran.output}`;
					// The shell's prompt takes the 40th line. A longer report is one story shown whole (loop.ts): it
					// cuts nothing, and takes no more than a screen beyond the screen.
					if (lines.length >= screen.lines) expect(ran.output, where).not.toContain('more lines:');
					expect(lines.length, where).toBeLessThan(screen.lines + wholeStory);
					// npm's own echo of the command ("> node …") is not ours to wrap.
					const ours = lines.filter((line) => !line.startsWith('> '));
					expect(
						ours.filter((line) => line.length > screen.columns),
						where
					).toEqual([]);
					if (state === 'green') {
						expect(ran.code, where).toBe(0);
						expect(ran.output, where).toContain(`${exercise.id} is green.`);
						const next = list[i + 1];
						if (next) expect(ran.output, where).toContain(`Next: ${next.id} · ${next.title}`);
					} else {
						expect(ran.code, where).toBe(1);
						expect(ran.output, where).toContain('First failure: ');
						expect(ran.output, where).toContain(`npm test exercises/${exercise.id} -- --all`);
					}
				}
			} finally {
				remove();
			}
		},
		240_000
	);

	it('says an answer the harness hands on, imported where it is the exercise, on its one screen, exit 1', async () => {
		const { root, remove } = tempWorkbook();
		try {
			const [handler, atomic] = ['02-same-event/handler.ts', '03-the-race/atomic.ts'];
			solve(root, '02-same-event', ['handler.ts']);
			const own = readFileSync(join(root, 'exercises', handler), 'utf8');
			const borrowed = own.replace(
				/export function replay[^]*?\n}\n/,
				"export { replay } from '#harness/core/replay.ts';\nimport { replay } from '#harness/core/replay.ts';\n"
			);
			expect(borrowed).not.toBe(own);
			writeFileSync(join(root, 'exercises', handler), borrowed);
			writeFileSync(
				join(root, 'exercises', atomic),
				"export { handleAtomically } from '#harness/race/atomic.ts';\n"
			);
			for (const [id, file, from] of [
				['02', handler, '03'],
				['03', atomic, '05']
			]) {
				const ran = await npmTest(root, `exercises/${id}`);
				const where = `npm test exercises/${id}:\n${ran.output}`;
				expect(ran.code, where).toBe(1);
				expect(ran.output, where).toContain(
					`exercises/${file} imports exercise ${id}'s answer, handed on from ${from}: write your own`
				);
				expect(ran.output, where).not.toContain('is green');
				expect(ran.output.trimEnd().split('\n').length, where).toBeLessThan(screen.lines);
			}
		} finally {
			remove();
		}
	}, 60_000);

	// 03's promise: a right prediction shows the race step by step; a wrong fix shows the lesson's two workers first, whole.
	it('03: a right prediction prints the race; a wrong fix fails first on the two workers, told whole', async () => {
		const { root, remove } = tempWorkbook();
		try {
			solve(root, '03-the-race', ['prediction.ts']);
			const right = await npmTest(root, 'exercises/03');
			expect(right.output).toContain('Your prediction is right. Here is the race, step by step:');
			expect(right.output).toMatch(/6\. B saves the receipt .*: unique violation/);
			expect(right.output.indexOf('step by step')).toBeLessThan(right.output.indexOf('First failure:'));
			for (const name of ['check-in-its-own-transaction', 'error-on-unique-violation']) {
				writeWrongSolution(
					wrongSolutions().find((w) => w.name === name)!,
					join(root, 'exercises')
				);
				const wrong = await npmTest(root, 'exercises/03');
				const where = `${name}:\n${wrong.output}`;
				const first = wrong.output.slice(wrong.output.indexOf('First failure:'));
				expect(first, where).toMatch(/^First failure: .*Two workers, one operation each\s+in turn/);
				expect(first, where).toContain('Schedule "two-workers-alternate"');
				expect(first, where).toContain('so B\n          waits for it to end.');
				expect(first, where).toMatch(/B saves the receipt .*: unique violation/);
				expect(first, where).toContain('After the run:');
				expect(first, where).not.toContain('three-workers');
				expect(first, where).not.toContain('more lines:');
			}
		} finally {
			remove();
		}
	}, 60_000);

	it('01 solved, printing a megabyte a call: green on one screen, and the command it names shows what was printed', async () => {
		const { root, remove } = tempWorkbook();
		try {
			const file = join(root, 'exercises', '01-first-handler', 'handler.ts');
			solve(root, '01-first-handler', ['handler.ts']);
			const solved = readFileSync(file, 'utf8');
			const printing = (what: string) =>
				solved.replace(/(\n\thandle\([^\n]*\{\n)/, `$1\t\tconsole.log(${what});\n`);
			expect(printing('1')).not.toBe(solved);
			writeFileSync(file, printing("'x'.repeat(1_000_000)"));
			const huge = await npmTest(root, 'exercises/01');
			const where = `npm test exercises/01, a megabyte a call:\n${huge.output.slice(0, 20_000)}`;
			expect(huge.code, where).toBe(0);
			expect(huge.output, where).toContain('01 is green.');
			expect(huge.output, where).toMatch(
				/it printed more than fits here; `npm test\s+\S+ -- --all` shows it/
			);
			expect(huge.output.length, where).toBeLessThan(20_000);
			writeFileSync(
				file,
				printing("Array.from({ length: 60 }, (_, i) => `line ${i + 1} of it`).join('\\n')")
			);
			const long = await npmTest(root, 'exercises/01');
			const named = /it printed more than fits here; `npm test\s+([^`]*)` shows it/.exec(long.output);
			expect(named, long.output).not.toBeNull();
			const shown = await npmTest(root, ...named![1]!.split(/\s+/).filter((arg) => arg !== '--'));
			expect(shown.output).toContain('line 60 of it');
			expect(shown.output).not.toContain('it printed more than fits here');
		} finally {
			remove();
		}
	}, 120_000);

	it('answers an exercise that does not exist with the list, and exit 2; --all gives the full report', async () => {
		const { root, remove } = tempWorkbook();
		try {
			const none = await run('npm', ['test', 'exercises/99'], { cwd: root });
			expect(none.code).toBe(2);
			expect(none.output).toContain('There is no exercise "exercises/99"');
			for (const exercise of exercises(root)) expect(none.output).toContain(`exercises/${exercise.folder}/`);
			expect(none.output).not.toContain('include:');
			// A number that is an option's value is Vitest's, not an exercise.
			const bail = await run('npm', ['test', 'exercises/01', '--', '--bail', '10'], { cwd: root });
			expect(bail.output).not.toContain('There is no exercise');
			expect(bail.output).toContain('First failure: ');
			const all = await npmTest(root, 'exercises/01', '--all');
			expect(all.output).toContain('Failed Tests');
			expect(all.output.match(/is not written yet/g)!.length).toBeGreaterThan(5);
		} finally {
			remove();
		}
	}, 60_000);
});
