// The hangs of this run, kept where Vitest's thread can read them (the reports), in the words a learner reads.
//
//   const hang = recordHang({ test, step, seconds: 5 });   // lib/watchdog/pool.ts, as it ends the thread
//   hangsIn('exercises/01-first-handler/handler.test.ts');  // the short report and progress
//
// Vitest loads the config and the reporters as separate module graphs, so the list lives on globalThis.
export type Hang = { file: string; test: string; id: string; step: string; seconds: number };

// What the test thread last said it ran: the test (as JSON: its file and name) and the step.
export type Running = { test: string; step: string; seconds: number };

const key = Symbol.for('idempotency-workbook.hangs');
const store = globalThis as { [key]?: Hang[] };
const hangs = (): Hang[] => (store[key] ??= []);

export function recordHang(running: Running): Hang {
	let [file, test, id] = ['', '', ''];
	try {
		({ file = '', test = '', id = '' } = JSON.parse(running.test || '{}') as Partial<Hang>);
	} catch {
		// An unreadable name: the story says less, and still says that the code did not return.
	}
	const hang = { file, test, id, step: running.step, seconds: running.seconds };
	hangs().push(hang);
	return hang;
}

// The hangs in one test file (a path from anywhere: only its end is compared), or all of them.
export const hangsIn = (file?: string): Hang[] =>
	hangs().filter((hang) => file === undefined || hang.file === file || hang.file.endsWith(`/${file}`));

// A new run (watch mode's next save) starts with none.
export const forgetHangs = (): void => void hangs().splice(0);

export const hangTitle = 'Your code did not return';

export function didNotReturn(hang: Hang): string {
	const where = [hang.test && `in "${hang.test}"`, hang.step && `at ${hang.step}`].filter(Boolean);
	return [
		`${hangTitle} within ${hang.seconds} s${where.length ? ` ${where.join(', ')}` : ''}.`,
		'A loop whose condition never turns false (`while (… >= 0)`, a counter that never moves) keeps',
		'the test waiting for ever: the test was stopped, and the tests after it in its file did not run.',
		`The limit is ${hang.seconds} s; a slow machine can give more: \`--time-limit=15\` after the command.`
	].join('\n');
}
