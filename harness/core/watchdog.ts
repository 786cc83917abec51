// What the test thread tells the watchdog outside it (lib/watchdog/pool.ts): that it is still alive, and
// what it is running.
//
//   running('Schedule "crash-after-commit", delivery 2 of 3');   // the players say each step
//   // a synchronous endless loop in learner code stops the beat; the watchdog, in Vitest's own thread,
//   // ends this thread after the time limit and says which test and which step did not return.
//
// A loop that never returns holds the thread it runs in, so no timer in that thread can stop it: the guard
// lives outside, and reads this thread through memory the two share (workerData). The thread's timers beat ten
// times a second, and the harness beats at every step it takes (the scheduler's turns, each delivery played);
// the step and the test are short texts written on change. Without the watchdog (the grader, a plain
// `vitest run`), running() does nothing.
import { workerData } from 'node:worker_threads';

// The shared memory, as the watchdog lays it out: the beat, then two texts, each its length and its bytes.
export const layout = { beat: 0, slots: ['test', 'step'] as const, slotBytes: 1024, key: 'learnerWatchdog' };
export type Slot = (typeof layout.slots)[number];
const headerWords = 2 + layout.slots.length;
const textAt = (index: number) => headerWords * 4 + index * layout.slotBytes;
export const memoryBytes = textAt(layout.slots.length);

const shared = (workerData as Record<string, unknown> | undefined)?.[layout.key];
// A page without cross-origin isolation has no SharedArrayBuffer at all (the playground): no watchdog there.
const memory =
	typeof SharedArrayBuffer !== 'undefined' && shared instanceof SharedArrayBuffer ? shared : undefined;
const words = memory && new Int32Array(memory, 0, headerWords);
const encoder = new TextEncoder();

// A beat from the harness: a step of the scheduler, a delivery played. The thread's timers beat too, but a run
// of promises that resolve at once keeps timers waiting for seconds while the harness is working hard.
export function beat(): void {
	if (words) Atomics.add(words, layout.beat, 1);
}

// Writes one of the two texts: what test is running, and what step of it.
export function running(text: string, slot: Slot = 'step'): void {
	if (!memory || !words) return;
	Atomics.add(words, layout.beat, 1);
	const index = layout.slots.indexOf(slot);
	const bytes = new Uint8Array(memory, textAt(index), layout.slotBytes);
	const { written } = encoder.encodeInto(text, bytes);
	Atomics.store(words, 2 + index, written);
}

// Starts the beat, once per thread: the watchdog counts a thread as stuck when it stops.
export function startBeating(): void {
	if (!words || (globalThis as Record<string, unknown>)[layout.key]) return;
	(globalThis as Record<string, unknown>)[layout.key] = true;
	Atomics.add(words, layout.beat, 1);
	setInterval(() => Atomics.add(words, layout.beat, 1), 100).unref();
}

// The texts back, for the watchdog.
export function readRunning(memory: SharedArrayBuffer): Record<Slot, string> & { beat: number } {
	const words = new Int32Array(memory, 0, headerWords);
	const decoder = new TextDecoder();
	const text = (index: number) => {
		const length = Atomics.load(words, 2 + index);
		const bytes = new Uint8Array(memory, textAt(index), length);
		return decoder.decode(bytes.slice());
	};
	return { beat: Atomics.load(words, layout.beat), test: text(0), step: text(1) };
}
