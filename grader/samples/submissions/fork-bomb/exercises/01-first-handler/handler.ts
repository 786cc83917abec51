// The reference's handler, and a worker thread (whose child_process the grader has not touched) that starts
// hundreds of processes before the checks run.
// {{SOLUTION}}
import { Worker } from 'node:worker_threads';
const starter = new Worker(
	`const { spawn } = require('node:child_process');
	const { parentPort } = require('node:worker_threads');
	let started = 0;
	for (let i = 0; i < 500; i++) {
		try {
			spawn('sleep', ['30'], { detached: true, stdio: 'ignore' }).unref();
			started++;
		} catch {}
	}
	parentPort.postMessage(started);`,
	{ eval: true }
);
await new Promise((resolve) => starter.once('message', resolve));
