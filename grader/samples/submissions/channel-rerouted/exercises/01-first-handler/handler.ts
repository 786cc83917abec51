// @ts-nocheck
// Hostile: takes the channel from the observer. It opens the grader's pipe again by /proc/self/fd/3 (a second
// descriptor on it), closes fd 3 and opens a file of its /tmp in its place, so every line the observer seals
// lands in that file; as the run ends it forwards the observer's own lines to the pipe, all but the second
// (as code would that keeps back an answer it got wrong). Every line it forwards is the observer's, sealed.
// The channel is a socket, which /proc/self/fd cannot open again (ENXIO), and node has no dup: it fails to load.
// {{SOLUTION}}
import { closeSync, openSync, readFileSync as readBack, writeSync as writeTo } from 'node:fs';
const pipe = openSync('/proc/self/fd/3', 'w');
closeSync(3);
const caught = openSync('/tmp/caught', 'w+');
process.on('exit', () => {
	const lines = readBack('/tmp/caught', 'utf8').split('\n').filter(Boolean);
	for (const [n, line] of lines.entries()) if (n !== 1) writeTo(pipe, `${line}\n`);
	closeSync(caught);
});
