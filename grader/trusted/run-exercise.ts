// One exercise of one submission: a fresh view, one sandboxed run of its observers, and the verdicts, made
// here, outside the sandbox, from what came back. Nothing the run printed decides a point; only observations
// of what the learner's code returned, judged against the expectations computed before (expect.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Exercise } from '#harness/core/manifest.ts';
import type { GradingPostgres, RunDatabase } from '../sandbox/postgres.ts';
import { socketInSandbox } from '../sandbox/postgres.ts';
import { answersOf, type Answers } from './answers.ts';
import { publicValuesOf, shownAnswer, shownErrorName } from './held-out-answer.ts';
import type { PlannedCheck } from './expect.ts';
import type { HeldOutInputs, Job } from '../channel/job.ts';
import type { SaidError } from '../channel/observations.ts';
import { runSandboxed, type Sandbox, type SandboxLimits, type SandboxRun } from '../sandbox/sandbox.ts';
import { maxTrace } from '../sandbox/trace.ts';
import type { Verdict } from './score.ts';
import { compiledHarness } from '../sandbox/compile.ts';
import { makeView, removeView } from '../sandbox/tree.ts';
import { firstLine } from './shown.ts';
import { borrowedInView } from './borrowed.ts';

export const maxMessage = 4000;
// Far more than any exercise's observations (a few hundred KB), and small enough to judge quickly.
export const maxObservations = 8 * 1024 * 1024;

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g;
// Learner text reaches a terminal: colours go, and any other control character is shown as "?".
// eslint-disable-next-line no-control-regex
const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
export const printable = (text: string) => text.replace(ansi, '').replace(control, '?');
export function clip(text: string, limit = maxMessage): string {
	const plain = printable(text).trimEnd();
	return plain.length > limit
		? `${plain.slice(0, limit)}\n[… ${plain.length - limit} more characters cut]`
		: plain;
}
const firstLineClipped = (text: string) => clip(firstLine(text), 300);

type Observation = { ok: unknown } | { threw: SaidError };
// What a run sent back on its channel (grader/channel/observations.ts), read strictly: anything else there is an
// attempt to speak for the grader.
export type Observed = {
	byCheck: Map<number, Map<number, Observation>>;
	loadError: { file: string; name: string; message: string } | null;
	exited: { code: number; while: string } | null;
	// The first call the sandbox refused (process.dlopen, child_process.spawn, …): it forfeits the exercise.
	refused: string | null;
	done: boolean;
	tampered: string | null;
};

const isSaidError = (value: unknown): value is SaidError =>
	!!value &&
	typeof value === 'object' &&
	typeof (value as SaidError).name === 'string' &&
	typeof (value as SaidError).message === 'string';

// A line's JSON text when the observer wrote it: its HMAC, under the run's key, of its number and its text.
export function unsealed(line: string, n: number, key: Buffer): string | null {
	const sealed = /^([0-9a-f]{64}) /.exec(line);
	if (!sealed) return null;
	const text = line.slice(65);
	const wanted = createHmac('sha256', key).update(`${n}\n${text}`).digest();
	return timingSafeEqual(Buffer.from(sealed[1]!, 'hex'), wanted) ? text : null;
}

export const emptyObserved = (): Observed => ({
	byCheck: new Map(),
	loadError: null,
	exited: null,
	refused: null,
	done: false,
	tampered: null
});

// One line's JSON, verified at its number n, or why it is not the observer's (last: the channel's last line,
// which the run left unfinished).
export function sealedValue(
	line: string,
	n: number,
	key: Buffer,
	last = false
): { value: Record<string, unknown> } | { tampered: string } {
	const json = last ? null : unsealed(line, n, key);
	try {
		if (json === null) throw new Error('not sealed');
		return { value: JSON.parse(json) };
	} catch {
		return { tampered: last ? `line ${n + 1} was left unfinished` : `line ${n + 1} is not the observer's` };
	}
}

// One verified line, taken into what a run (or one exercise of a batch) observed: its answer, its load error,
// its exit, a refusal, or done; anything else, or a line after done, is tampering (said in observed.tampered).
export function takeLine(
	observed: Observed,
	value: Record<string, unknown>,
	n: number,
	checks: PlannedCheck[]
) {
	const keys = value && typeof value === 'object' ? Object.keys(value).sort().join(',') : '';
	if (observed.done) observed.tampered = 'a line after the last';
	else if (keys === 'done' && value.done === true) observed.done = true;
	else if (
		keys === 'load' &&
		isSaidError(value.load) &&
		typeof (value.load as unknown as { file: unknown }).file === 'string'
	)
		observed.loadError = value.load as Observed['loadError'];
	else if (keys === 'refused' && typeof value.refused === 'string') observed.refused ??= value.refused;
	else if (keys === 'exited,while' && typeof value.exited === 'number' && typeof value.while === 'string')
		observed.exited = { code: value.exited, while: value.while };
	else if (
		(keys === 'c,i,ok' || (keys === 'c,i,threw' && isSaidError(value.threw))) &&
		Number.isInteger(value.c) &&
		Number.isInteger(value.i)
	) {
		const [c, i] = [value.c as number, value.i as number];
		const cases = checks[c]?.cases.length ?? 0;
		const seen = observed.byCheck.get(c) ?? new Map<number, Observation>();
		if (i < 0 || i >= cases || seen.has(i))
			observed.tampered = `an observation for a case that was not asked, or twice (${c}:${i})`;
		seen.set(i, 'ok' in value ? { ok: value.ok } : { threw: value.threw as SaidError });
		observed.byCheck.set(c, seen);
	} else observed.tampered = `line ${n + 1} is not an observation`;
}

// The channel as the observer wrote it, or the first line it did not write. A last line left unfinished counts
// against the run too, unless the grader stopped the run (time, memory, a flood, an attempt) and so cut it.
export function readObservations(
	text: string,
	checks: PlannedCheck[],
	seal: { key: Buffer; stopped: boolean }
): Observed {
	const observed = emptyObserved();
	const lines = text.split('\n');
	const unfinished = lines.pop()!;
	const cut = unfinished !== '' && !seal.stopped;
	if (cut) lines.push(unfinished);
	for (const [n, line] of lines.entries()) {
		const sealed = sealedValue(line, n, seal.key, cut && n === lines.length - 1);
		if ('tampered' in sealed) {
			observed.tampered = sealed.tampered;
			return observed;
		}
		takeLine(observed, sealed.value, n, checks);
		if (observed.tampered) return observed;
	}
	return observed;
}

// Why the checks that have no observation never got one.
function whyNotRun(ran: SandboxRun, observed: Observed, limits: SandboxLimits, folder: string): string {
	if (ran.stoppedFor) return `${ran.stoppedFor}; the run was stopped`;
	if (observed.loadError) {
		const { file, name, message } = observed.loadError;
		return `exercises/${folder}/${file} did not load: ${firstLineClipped(`${name}: ${message}`)}`;
	}
	if (observed.exited?.code === 13)
		return `a promise never settled ${observed.exited.while}: the run had nothing left to do`;
	if (observed.exited) return `the process exited (code ${observed.exited.code}) ${observed.exited.while}`;
	if (ran.flooded)
		return `its observations passed ${limits.maxObservations / 1024 / 1024} MB; the run was stopped`;
	if (ran.traceFlooded)
		return `its system calls passed ${maxTrace / 1024 / 1024} MB of trace; the run was stopped`;
	if (ran.outOfMemory)
		return `the run was killed: out of memory (${limits.memoryMb} MB for the whole run, buffers included)`;
	if (ran.timedOut)
		return `timed out: the exercise was stopped after ${limits.timeoutMs / 1000} s (an endless loop or a promise that never settles?)`;
	const how = ran.signal ? `was killed (${ran.signal})` : `exited (code ${ran.code})`;
	return `the run ${how} before it reported: ${firstLineClipped(ran.output) || 'no output'}`;
}

// Every check as not executed, and why: a run that never started, or a submission never run.
export const notRun = (checks: PlannedCheck[], why: string): Verdict[] =>
	checks.map((check) => ({
		file: check.heldOut ? 'held-out' : 'given',
		name: check.name,
		heldOut: check.heldOut,
		free: check.free,
		status: 'not executed',
		message: `not executed: ${why}`
	}));

// Every check failed with the same reason: the exercise forfeited before it ran.
export const zeroFor = (checks: PlannedCheck[], why: string): Verdict[] =>
	checks.map((check) => ({
		file: check.heldOut ? 'held-out' : 'given',
		name: check.name,
		heldOut: check.heldOut,
		free: check.free,
		status: 'failed',
		message: `0 for this exercise: ${clip(why, 400)}`
	}));

// answers: what the code answered on every input, for the diagnosis (diagnose.ts); none for a forfeited run.
export type ExerciseRun = {
	verdicts: Verdict[];
	seconds: number;
	output: string;
	tracedCalls?: number;
	answers?: Answers;
};

// Every input's answer, judged, unless the run forfeited (then its answers say nothing of the code's ideas).
// observed: the channel as readObservations read it, when the caller has it already.
export function answersFrom(
	checks: PlannedCheck[],
	ran: SandboxRun,
	observed = readObservations(ran.observations, checks, ran)
): Answers | undefined {
	if (observed.tampered || observed.refused || ran.attempt || ran.started > 0) return undefined;
	return answersOf(checks, (c, i) => observed.byCheck.get(c)?.get(i));
}

export function verdictsFrom(
	checks: PlannedCheck[],
	ran: SandboxRun,
	limits: SandboxLimits,
	exercise: Exercise,
	observed = readObservations(ran.observations, checks, ran)
): Verdict[] {
	const base = (check: PlannedCheck) => ({
		file: check.heldOut ? 'held-out' : 'given',
		name: check.name,
		heldOut: check.heldOut,
		free: check.free
	});
	// An attempt stops the run at once, so it comes before a count of processes the watch may not have seen yet.
	const forfeit = observed.tampered
		? `its code wrote on the grader's observation channel (${observed.tampered})`
		: observed.refused
			? `its code called ${clip(observed.refused, 80)}, which learner code may not`
			: ran.attempt
				? `its code tried to reach ${clip(ran.attempt, 160).split('\n')[0]}, outside its sandbox`
				: ran.started > 0
					? `its code started ${ran.started === 1 ? 'a process' : `${ran.started} processes`} of its own, which learner code may not`
					: null;
	if (forfeit) {
		const message = `0 for this exercise: ${forfeit}`;
		return checks.map((check) => ({ ...base(check), status: 'failed', message }));
	}
	const notRun = whyNotRun(ran, observed, limits, exercise.folder);
	const publicValues = () => publicValuesFor(checks);
	return checks.map((check, c) => {
		const seen = observed.byCheck.get(c);
		for (const [i, input] of check.cases.entries()) {
			const one = seen?.get(i);
			if (!one) return { ...base(check), status: 'not executed', message: `not executed: ${notRun}` };
			const where = check.heldOut
				? `A random case the tests do not ship (held-out, case ${i + 1} of ${check.cases.length}):\n`
				: '';
			if ('threw' in one) {
				const { name, message } = one.threw;
				// On a held-out case, the learner's own words are not shown (they could carry the other cases,
				// read from job.json): what it threw, and the one input it threw on.
				const said = check.heldOut
					? `your code threw ${shownErrorName(name)} on this input: ${clip(JSON.stringify(input) ?? 'undefined', 1500)}`
					: name === 'NotWrittenYet' || name === 'ScheduleMismatch' || name === 'NotTheContract'
						? message
						: `your code threw ${name}: ${message}`;
				return { ...base(check), status: 'failed', message: clip(`${where}${said}`) };
			}
			// An answer the judge cannot read is wrong; on a held-out case, the judge's error is not shown.
			let problem = judged(check, i, one.ok, (why) =>
				check.heldOut
					? 'what your code returned could not be read'
					: `what your code returned could not be read: ${why}`
			);
			// On a held-out case, the words are made from the answer as it may be shown (held-out-answer.ts):
			// code that wrote the other inputs into its answer finds none of them in its report.
			// An answer the judge read, but cannot read as shown (cut short, a value hidden), is said as one that differs.
			if (problem && check.heldOut)
				problem =
					judged(check, i, shownAnswer(one.ok, input, check.expected[i], publicValues()), () => null) ??
					`your code's answer differs from the reference's on this input: ${clip(JSON.stringify(input) ?? 'undefined', 1500)}`;
			if (problem) return { ...base(check), status: 'failed', message: clip(`${where}${problem}`) };
		}
		return { ...base(check), status: 'passed', message: '' };
	});
}

// The values of a plan's given checks, which a held-out case's message may show: worked out when a held-out case
// first fails, once for the class (every submission is judged on the same planned checks).
const publicValuesOfPlan = new WeakMap<PlannedCheck[], Set<unknown>>();
function publicValuesFor(checks: PlannedCheck[]): Set<unknown> {
	let values = publicValuesOfPlan.get(checks);
	if (!values) {
		values = publicValuesOf(checks.filter((check) => !check.heldOut));
		publicValuesOfPlan.set(checks, values);
	}
	return values;
}

// The judge's words on one answer, or null where it is right; where the judge cannot read the answer, what
// unread says of the judge's error.
function judged(
	check: PlannedCheck,
	i: number,
	answer: unknown,
	unread: (why: string) => string | null
): string | null {
	try {
		return check.judge(check.cases[i], answer, check.expected[i]);
	} catch (error) {
		return unread(error instanceof Error ? error.message : String(error));
	}
}

const withoutExpect = (input: unknown) => {
	if (!input || typeof input !== 'object' || Array.isArray(input) || !('expect' in input)) return input;
	const { expect: _expect, ...rest } = input as Record<string, unknown>;
	return rest;
};

// What a run is handed: job.json, and the held-out inputs for heldOutFd. The sandbox gets inputs only: a
// schedule's own expectations stay outside, with the judge. The held-out ones are not in job.json: they come on
// their own descriptor, read before learner code loads and played after every given check, so no given check's
// answer can carry one out. A Go run (run-go.ts) is handed the same.
export function jobOf(
	exercise: Exercise,
	checks: PlannedCheck[],
	postgres: Job['postgres'],
	freeze: string[]
): { job: Job; heldOut: HeldOutInputs } {
	const job: Job = {
		postgres,
		folder: exercise.folder,
		files: exercise.learnerFiles,
		freeze,
		checks: checks.map(({ observer, cases, heldOut }) => ({
			observer,
			heldOut,
			cases: heldOut ? [] : cases.map(withoutExpect)
		}))
	};
	const heldOut: HeldOutInputs = Object.fromEntries(
		checks.flatMap((check, c) => (check.heldOut ? [[c, check.cases.map(withoutExpect)]] : []))
	);
	return { job, heldOut };
}

export async function runExercise(
	sandbox: Sandbox,
	exercise: Exercise,
	files: Map<string, string>,
	checks: PlannedCheck[],
	given: SandboxLimits,
	databases?: GradingPostgres | null
): Promise<ExerciseRun> {
	// A slow exercise (06 plays every schedule over HTTP on PostgreSQL) gets its manifest's multiple of the limit.
	const limits = { ...given, timeoutMs: given.timeoutMs * (exercise.timeLimitFactor ?? 1) };
	const sandboxed = sandbox.bwrap !== null;
	const harness = await compiledHarness({ sandboxed });
	let database: RunDatabase | null = null;
	try {
		if (databases) database = await databases.runDatabase();
		return await runIn(sandbox, sandboxed, harness, exercise, files, checks, limits, database);
	} finally {
		await database?.drop();
	}
}

async function runIn(
	sandbox: Sandbox,
	sandboxed: boolean,
	harness: Awaited<ReturnType<typeof compiledHarness>>,
	exercise: Exercise,
	files: Map<string, string>,
	checks: PlannedCheck[],
	limits: SandboxLimits,
	database: RunDatabase | null
): Promise<ExerciseRun> {
	// Inside the sandbox the server's socket folder is bound at socketInSandbox; without one, it is where it is.
	const postgres = database
		? { ...database.job, host: sandboxed ? socketInSandbox : database.job.host }
		: null;
	const { job, heldOut } = jobOf(exercise, checks, postgres, harness.uses.get(exercise.folder) ?? []);
	const view = await makeView(harness, exercise, files, job, { sandboxed });
	try {
		if (view.error) return { verdicts: notRun(checks, view.error), seconds: 0, output: '' };
		const borrowed = borrowedInView(harness.dir, view.dir, exercise);
		if (borrowed) return { verdicts: zeroFor(checks, borrowed), seconds: 0, output: '' };
		// A database past its quota on disk stops the run at once.
		const full = new AbortController();
		const size = database?.watchSize((why) => {
			full.abort(why);
			void database!.drop();
		});
		const ran = await runSandboxed(
			sandbox,
			{
				harness: harness.dir,
				view: view.dir,
				folder: exercise.folder,
				socketFolder: database?.job.host ?? null,
				abort: full.signal,
				heldOut: JSON.stringify(heldOut)
			},
			limits
		).finally(() => size?.stop());
		// Read once (every line's HMAC checked, its JSON parsed): the verdicts and the diagnosis's answers share it.
		const observed = readObservations(ran.observations, checks, ran);
		// The answers (every input judged again and written canonically) only for a diagnosis, which only a run
		// that lost points asks for: for 06, half a second of the grader's CPU a run that full marks never need.
		let answers: { of: Answers | undefined } | null = null;
		return {
			verdicts: verdictsFrom(checks, ran, limits, exercise, observed),
			get answers() {
				answers ??= { of: answersFrom(checks, ran, observed) };
				return answers.of;
			},
			seconds: ran.seconds,
			output: ran.output,
			tracedCalls: ran.tracedCalls
		};
	} finally {
		removeView(view.dir);
	}
}
