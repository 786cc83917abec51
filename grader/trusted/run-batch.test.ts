// The batch's rule on hand-sealed channels (run-batch.ts's followBatch): an exercise keeps what the batch
// observed only when both its parts were closed by done before anything went wrong; the part where it went wrong
// and every one after it are graded alone. Three exercises: parts 0, 1, 2 their given checks, 3, 4, 5 their
// held-out ones.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Exercise } from '#harness/core/manifest.ts';
import type { SandboxRun } from '../sandbox/sandbox.ts';
import { followBatch, type BatchExercise } from './run-batch.ts';

const key = randomBytes(32);
const three: BatchExercise[] = ['01', '02', '03'].map((id) => ({
	exercise: { id, folder: id } as Exercise,
	files: new Map(),
	checks: []
}));
const limits = { timeoutMs: 60_000, memoryMb: 1024, maxOutput: 1024, maxObservations: 1024 };
const ended = { code: 0, signal: null, stopped: false, attempt: null, started: 0, traceFlooded: false };
const ran = (more: Partial<SandboxRun> = {}) => ({ ...ended, attemptPart: null, ...more }) as SandboxRun;

// The observer's lines, sealed at their numbers, as main.ts writes them; a string is written as it is.
function channel(lines: (object | string)[]): Buffer {
	return Buffer.from(
		lines
			.map((line, n) => {
				if (typeof line === 'string') return `${line}\n`;
				const text = JSON.stringify(line);
				return `${createHmac('sha256', key).update(`${n}\n${text}`).digest('hex')} ${text}\n`;
			})
			.join('')
	);
}
const part = (k: number, heldOut: boolean, ...lines: object[]) => [
	{ begin: k, heldOut },
	...lines,
	{ done: true }
];
const whole = [0, 1, 2]
	.flatMap((k) => part(k, false, { c: 0, i: 0, ok: k }))
	.concat([0, 1, 2].flatMap((k) => part(k, true, { c: 1, i: 0, ok: k })));

function follow(lines: (object | string)[], end = ran(), chunk = 7) {
	const stops: string[] = [];
	const watch = followBatch(key, three, limits, (why) => stops.push(why));
	const bytes = channel(lines);
	// In small pieces, as a pipe may hand them over.
	for (let at = 0; at < bytes.length; at += chunk) watch.data(bytes.subarray(at, at + chunk));
	return { ...watch.end(end), stops };
}

describe("the batch's rule", () => {
	it('keeps every exercise of a batch that ended cleanly, and what each part said', () => {
		const seen = follow(whole);
		expect([seen.bad, seen.kept, seen.stops]).toEqual([6, [true, true, true], []]);
		expect(seen.parts.map((one) => one.values.map(({ value }) => value))).toEqual([
			[{ c: 0, i: 0, ok: 0 }],
			[{ c: 0, i: 0, ok: 1 }],
			[{ c: 0, i: 0, ok: 2 }],
			[{ c: 1, i: 0, ok: 0 }],
			[{ c: 1, i: 0, ok: 1 }],
			[{ c: 1, i: 0, ok: 2 }]
		]);
	});

	it('keeps the exercises whose held-out part closed before a forged line, and stops the batch there', () => {
		const forged = [...whole.slice(0, 12), '0'.repeat(64) + ' {"c":1,"i":0,"ok":1}'];
		const seen = follow(forged);
		expect([seen.bad, seen.kept]).toEqual([4, [true, false, false]]);
		expect(seen.stops).toEqual(["line 13 is not the observer's"]);
	});

	it('places an attempt in the part the tracer saw it in', () => {
		expect(follow(whole, ran({ attempt: '/proc/1/environ', attemptPart: 5 })).kept).toEqual([
			true,
			true,
			false
		]);
		expect(follow(whole, ran({ attempt: '/proc/1/environ', attemptPart: 2 })).kept).toEqual([
			false,
			false,
			false
		]);
	});

	it('keeps none when it goes wrong in the given pass: no exercise has closed its held-out part', () => {
		const exited = [...whole.slice(0, 4), { exited: 0, while: 'during check 1, case 1' }];
		expect(follow(exited).kept).toEqual([false, false, false]);
	});

	it('keeps the parts closed before a run that was stopped, or ended by the kernel', () => {
		const upTo5 = whole.slice(0, 15);
		expect(follow(upTo5, ran({ stopped: true, code: null, signal: 'SIGKILL' })).kept).toEqual([
			true,
			true,
			false
		]);
	});

	it('keeps none when anything happens after the last part: whose it was cannot be told', () => {
		expect(follow([...whole, { done: true }]).kept).toEqual([false, false, false]);
		expect(follow(whole, ran({ code: 3 })).kept).toEqual([false, false, false]);
		expect(follow(whole, ran({ attempt: '/proc/1/environ', attemptPart: 6 })).kept).toEqual([
			false,
			false,
			false
		]);
		expect(follow(whole, ran({ started: 1 })).kept).toEqual([false, false, false]);
	});

	it('refuses a part out of its order, and a refusal inside a part', () => {
		const swapped = [...part(1, false), ...whole.slice(3)];
		expect(follow(swapped).kept).toEqual([false, false, false]);
		const refused = [...whole.slice(0, 13), { refused: 'child_process.spawn' }];
		expect(follow(refused).kept).toEqual([true, false, false]);
	});

	it("stops an exercise past its own observations' cap", () => {
		const big = { c: 1, i: 0, ok: 'x'.repeat(2000) };
		const seen = follow([...whole.slice(0, 12), { begin: 1, heldOut: true }, big]);
		expect([seen.kept, seen.stops]).toEqual([[true, false, false], ['observations']]);
	});

	it('stops a line that never ends at the cap, without joining it piece by piece', () => {
		const stops: string[] = [];
		const watch = followBatch(key, three, limits, (why) => stops.push(why));
		watch.data(channel(whole.slice(0, 1)));
		for (let i = 0; i < 5; i++) watch.data(Buffer.alloc(300, 'x'));
		expect(stops).toEqual(['observations']);
		expect(watch.end(ran({ stopped: true })).kept).toEqual([false, false, false]);
	});

	it('stops the batch when the exercise playing has used its own time limit, not the batch sum', () => {
		vi.useFakeTimers();
		try {
			const stops: string[] = [];
			const watch = followBatch(key, three, { ...limits, timeoutMs: 60 }, (why) => stops.push(why));
			const bytes = channel(whole.slice(0, 10));
			const firstBegin = channel(whole.slice(0, 1)).length;
			// 01's given part takes 40 ms of its 60; 02's and 03's none; 01's held-out part then has 20 ms left.
			watch.data(bytes.subarray(0, firstBegin));
			vi.advanceTimersByTime(40);
			watch.data(bytes.subarray(firstBegin));
			vi.advanceTimersByTime(19);
			expect(stops).toEqual([]);
			vi.advanceTimersByTime(2);
			expect(stops).toEqual(['time']);
			expect(watch.end(ran({ stopped: true })).kept).toEqual([false, false, false]);
		} finally {
			vi.useRealTimers();
		}
	});
});
