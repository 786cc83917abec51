// Stands in for node:worker_threads in the page. The harness's watchdog (core/watchdog.ts) reads workerData to
// find the memory it shares with the learner loop's watchdog; the page has none, so the harness beats to no one.
export const workerData = undefined;
