// A submission's small exercises (every one without a database) in ONE sandboxed run, and the rule that keeps a
// broken exercise costing that exercise alone.
//
//   const batch = await runBatch(sandbox, [{ exercise, files, checks }, …], limits);
//   batch.get('01-first-handler')   // its ExerciseRun, judged as a run alone would be; null: grade it alone
//
// The run is grader/inside/main.ts on a BatchJob (grader/channel/job.ts): every exercise's observers load first,
// then the exercises play one after the other in two passes, each part opened by a sealed begin line and a stat of
// the part's marker (a path drawn at random for this run, which the tracer sees and no learner code can name),
// and closed by done. The grader reads the channel as it comes (every line's HMAC at its number, strictly): each
// exercise has its own time limit (the time its parts took, not the batch's sum) and its own cap on
// observations, and the tracer gives each part its own exercise folder alone, as a run alone has (attempts.ts).
//
// The rule. An exercise keeps what the batch observed only when both its parts were closed by a sealed done line
// before anything went wrong: an attempt (in the part the tracer saw it in; in part 0 when a thread made it or a
// marker came out of turn), a line that does not verify or says what a part may not (a refusal, an exit, a line
// after the end), a limit (its time, its observations, memory, the trace), a process of its own, or an end that
// is not main.ts's own. The exercise running then and every one after it are graded alone (grade.ts), and only
// those runs decide them; so is an exercise whose file did not load (a batch freezes every exercise's harness
// modules, a run alone only its own). Nothing after a part's done can change that part's answers: the next
// marker and begin line follow it in one synchronous step, so learner code acting later (a timer) can only end
// the batch early, and what ends it costs a run alone.
import { randomBytes } from 'node:crypto';
import type { Exercise } from '#harness/core/manifest.ts';
import { partMarker, type BatchHeldOut, type Job } from '../channel/job.ts';
import type { Part } from '../sandbox/attempts.ts';
import { compiledHarness } from '../sandbox/compile.ts';
import { runSandboxed, type Sandbox, type SandboxLimits, type SandboxRun } from '../sandbox/sandbox.ts';
import { makeBatchView, removeView, writeJob } from '../sandbox/tree.ts';
import { borrowedInView } from './borrowed.ts';
import type { PlannedCheck } from './expect.ts';
import {
	answersFrom,
	emptyObserved,
	jobOf,
	notRun,
	sealedValue,
	takeLine,
	verdictsFrom,
	zeroFor,
	type ExerciseRun
} from './run-exercise.ts';
import type { Answers } from './answers.ts';

export type BatchExercise = { exercise: Exercise; files: Map<string, string>; checks: PlannedCheck[] };

// What the channel said of one part: its verified lines (begin and done left out), whether done closed it, and
// how long it ran.
type PartSeen = { values: { value: Record<string, unknown>; n: number }[]; done: boolean; ms: number };

// The channel read as it arrives: each line verified at its number; parts opened and closed in their order;
// each exercise stopped at its own time limit and its own observations' cap (stop says why). bad: the first
// part something went wrong in, or null.
export function followBatch(
	key: Buffer,
	exercises: BatchExercise[],
	limits: SandboxLimits,
	stop: (why: string) => void
) {
	const count = exercises.length;
	const parts: PartSeen[] = [];
	const used = exercises.map(() => 0);
	const limitOf = (k: number) => limits.timeoutMs * (exercises[k]!.exercise.timeLimitFactor ?? 1);
	let n = 0;
	let bytes = 0;
	let began = 0;
	// A line not yet ended, in the pieces it came in: joined only when its newline comes, and never past the cap.
	let pending: Buffer[] = [];
	let pendingSize = 0;
	let bad: number | null = null;
	// Before the first part: the observers' loading, the grader's own code, within one exercise's limit.
	let timer: NodeJS.Timeout | undefined = setTimeout(() => wrong('time'), limits.timeoutMs).unref();
	const wrong = (why: string) => {
		// The part open then; between two parts, the next one (the one before had closed).
		const last = parts[parts.length - 1];
		bad ??= last && !last.done ? parts.length - 1 : parts.length;
		clearTimeout(timer);
		stop(why);
	};
	const line = (text: string) => {
		if (bad !== null) return;
		const sealed = sealedValue(text, n, key);
		if ('tampered' in sealed) return wrong(sealed.tampered);
		const { value } = sealed;
		const open = parts[parts.length - 1];
		const p = parts.length;
		if (open && !open.done) {
			if (Object.keys(value).join(',') === 'done' && value.done === true) {
				open.done = true;
				open.ms = Date.now() - began;
				used[(p - 1) % count]! += open.ms;
				clearTimeout(timer);
			} else if ('refused' in value || 'exited' in value) return wrong('refused or exited');
			else if ((bytes += text.length) > limits.maxObservations) return wrong('observations');
			else open.values.push({ value, n });
		} else if (
			p < 2 * count &&
			Object.keys(value).sort().join(',') === 'begin,heldOut' &&
			value.begin === p % count &&
			value.heldOut === p >= count
		) {
			parts.push({ values: [], done: false, ms: 0 });
			began = Date.now();
			bytes = 0;
			clearTimeout(timer);
			timer = setTimeout(() => wrong('time'), Math.max(0, limitOf(p % count) - used[p % count]!)).unref();
		} else {
			// A line outside a part (between two, or after the last): in the part that follows, or part 0 at the end.
			bad = p < 2 * count ? p : 0;
			return wrong('a line outside a part');
		}
		n++;
	};
	return {
		data(chunk: Buffer) {
			if (bad !== null) return;
			let start = 0;
			for (let end = chunk.indexOf(10); end >= 0 && bad === null; end = chunk.indexOf(10, start)) {
				const piece = chunk.subarray(start, end);
				line((pendingSize ? Buffer.concat([...pending, piece]) : piece).toString('utf8'));
				[pending, pendingSize, start] = [[], 0, end + 1];
			}
			if (bad !== null || start === chunk.length) return;
			pending.push(chunk.subarray(start));
			pendingSize += chunk.length - start;
			if (pendingSize > limits.maxObservations) wrong('observations');
		},
		// Once the run is over: the first part not closed cleanly (2 × count when every one was), given how it ended,
		// and which exercises keep what the batch observed: those whose two parts both came before it.
		end(ran: SandboxRun): { parts: PartSeen[]; bad: number; kept: boolean[] } {
			clearTimeout(timer);
			const closed = parts.filter((part) => part.done).length;
			let first = Math.min(bad ?? closed, closed);
			if (ran.attempt) first = Math.min(first, ran.attemptPart ?? 0);
			// After the last done only main.ts's exit is left: anything else there is someone's, and no one's part.
			const cleanEnd =
				pendingSize === 0 &&
				ran.code === 0 &&
				!ran.signal &&
				!ran.stopped &&
				!ran.attempt &&
				ran.started === 0 &&
				!ran.traceFlooded;
			if (first === 2 * count && !cleanEnd) first = 0;
			if (ran.started > 0) first = 0;
			const kept = exercises.map((_, k) => count + k < first && !!parts[k]?.done && !!parts[count + k]?.done);
			return { parts, bad: first, kept };
		}
	};
}

// One exercise's run, made from its two parts: judged by the very functions a run alone is (run-exercise.ts).
function exerciseRun(
	one: BatchExercise,
	given: PartSeen,
	heldOut: PartSeen,
	ran: SandboxRun,
	calls: number,
	limits: SandboxLimits
): ExerciseRun | null {
	const observed = emptyObserved();
	for (const { value, n } of [...given.values, ...heldOut.values]) {
		takeLine(observed, value, n, one.checks);
		if (observed.tampered) return null;
	}
	if (observed.loadError || observed.refused || observed.exited) return null;
	const answered = one.checks.every(
		(check, c) => (observed.byCheck.get(c)?.size ?? 0) === check.cases.length
	);
	if (!answered) return null;
	observed.done = true;
	const alone: SandboxRun = {
		...ran,
		observations: '',
		stopped: false,
		flooded: false,
		output: '',
		code: 0,
		signal: null,
		timedOut: false,
		outOfMemory: false,
		started: 0,
		attempt: null,
		traceFlooded: false,
		tracedCalls: calls,
		stoppedFor: null,
		seconds: (given.ms + heldOut.ms) / 1000
	};
	const limitsAlone = { ...limits, timeoutMs: limits.timeoutMs * (one.exercise.timeLimitFactor ?? 1) };
	let answers: { of: Answers | undefined } | null = null;
	return {
		verdicts: verdictsFrom(one.checks, alone, limitsAlone, one.exercise, observed),
		get answers() {
			answers ??= { of: answersFrom(one.checks, alone, observed) };
			return answers.of;
		},
		seconds: alone.seconds,
		output: '',
		tracedCalls: calls
	};
}

// Every exercise's run, by folder: what the batch observed, judged; or null where it must be graded alone. An
// exercise that does not compile, or imports an answer handed on, never runs, as alone.
export async function runBatch(
	sandbox: Sandbox,
	exercises: BatchExercise[],
	limits: SandboxLimits
): Promise<Map<string, ExerciseRun | null>> {
	const results = new Map<string, ExerciseRun | null>();
	const sandboxed = sandbox.bwrap !== null;
	const harness = await compiledHarness({ sandboxed });
	const view = await makeBatchView(harness, exercises, null, { sandboxed });
	try {
		const playing: BatchExercise[] = [];
		for (const one of exercises) {
			const error = view.errors.get(one.exercise.folder);
			const borrowed = error ? null : borrowedInView(harness.dir, view.dir, one.exercise);
			if (error)
				results.set(one.exercise.folder, { verdicts: notRun(one.checks, error), seconds: 0, output: '' });
			else if (borrowed)
				results.set(one.exercise.folder, { verdicts: zeroFor(one.checks, borrowed), seconds: 0, output: '' });
			else playing.push(one);
		}
		if (playing.length < 2) {
			for (const one of playing) results.set(one.exercise.folder, null);
			return results;
		}
		const jobs: Job[] = [];
		const heldOut: BatchHeldOut = { marker: randomBytes(16).toString('hex'), heldOut: [] };
		for (const one of playing) {
			const made = jobOf(one.exercise, one.checks, null, harness.uses.get(one.exercise.folder) ?? []);
			jobs.push(made.job);
			heldOut.heldOut.push(made.heldOut);
		}
		writeJob(view.dir, { batch: jobs });
		const folders = playing.map((one) => one.exercise.folder);
		const parts: Part[] = [...folders, ...folders, ''].map((folder, n) => ({
			folder,
			marker: partMarker(heldOut.marker, n)
		}));
		const key = randomBytes(32);
		const abort = new AbortController();
		const follow = followBatch(key, playing, limits, (why) => abort.abort(why));
		const ran = await runSandboxed(
			sandbox,
			{
				harness: harness.dir,
				view: view.dir,
				folder: folders[0]!,
				folders,
				parts,
				key,
				onChannel: follow.data,
				abort: abort.signal,
				heldOut: JSON.stringify(heldOut)
			},
			{
				...limits,
				// Each exercise is stopped at its own limit (followBatch); this is the backstop.
				timeoutMs: limits.timeoutMs * (playing.length + 1),
				maxObservations: limits.maxObservations * playing.length
			}
		);
		const { parts: seen, kept } = follow.end(ran);
		const count = playing.length;
		for (const [k, one] of playing.entries()) {
			const calls = (ran.callsByPart[k] ?? 0) + (ran.callsByPart[count + k] ?? 0);
			const run = kept[k] ? exerciseRun(one, seen[k]!, seen[count + k]!, ran, calls, limits) : null;
			results.set(one.exercise.folder, run);
		}
		return results;
	} finally {
		removeView(view.dir);
	}
}
