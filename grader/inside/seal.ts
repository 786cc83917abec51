// The observer's pen: the one way to write a line on the grader's channel that the grader will believe.
//
//   const send = openChannel();   // once, in main.ts, before any learner file loads; a second call throws
//   send({ c: 0, i: 2, ok: true });   // "<hmac> {"c":0,"i":2,"ok":true}\n" on fd 3
//
// The grader hands every run a key of its own on fd 4 (grader/channel/observations.ts), and nowhere else: not
// in job.json, not in the environment, not on disk. openChannel reads it, closes fd 4, and keeps the key in
// this closure alone; every line it writes carries an HMAC of its number and its text under that key. Learner
// code, loaded after, can write on fd 3 too, but not a line that verifies: it never saw the key. The ways in
// process to read it back are shut before learner code loads: the inspector, worker threads, native addons and
// child processes by node's permission model (sandbox.ts), the hash objects' prototypes here by freezing, and
// reading the process's own memory is an attempt the tracer forfeits (attempts.ts).
import { closeSync, readFileSync, writeSync } from 'node:fs';
import { createHmac, createSecretKey } from 'node:crypto';
import { channelFd, keyFd, type ObservationLine } from '../channel/observations.ts';

let opened = false;

// Freezes the methods an HMAC goes through (the JavaScript class's own, update and digest, and its native
// handle's), so code loaded later cannot wrap them to see what the observer signs or to sign its own text. Not
// the stream classes above Hmac: EventEmitter's prototype frozen would stop every emitter setting its fields.
function freezeHashes(): void {
	const sample = createHmac('sha256', 'x') as unknown as Record<symbol, unknown>;
	Object.freeze(Object.getPrototypeOf(sample));
	for (const symbol of Object.getOwnPropertySymbols(sample)) {
		const inner = sample[symbol];
		if (inner && typeof inner === 'object') Object.freeze(Object.getPrototypeOf(inner));
	}
}

export function openChannel(): (line: ObservationLine) => void {
	if (opened) throw new Error('the channel is the observer’s alone');
	opened = true;
	const raw = readFileSync(keyFd);
	closeSync(keyFd);
	const key = createSecretKey(raw);
	raw.fill(0);
	freezeHashes();
	const stringify = JSON.stringify;
	const write = writeSync;
	let number = 0;
	return (line) => {
		const text = stringify(line);
		const mac = createHmac('sha256', key).update(`${number++}\n${text}`).digest('hex');
		write(channelFd, `${mac} ${text}\n`);
	};
}
