// @ts-nocheck
// In a batch, tells exercise 01's timer (its own handler.ts) that exercise 07 is loading, long after 01 is done,
// and waits a moment, so the timer's turn comes then.
globalThis.lateSignal = true;
await new Promise((resolve) => setTimeout(resolve, 20));
// {{SOLUTION}}
