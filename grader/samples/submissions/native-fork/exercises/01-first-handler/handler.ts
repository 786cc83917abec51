// @ts-nocheck
// Hostile: writes a native library into its /tmp and loads it with process.dlopen; the library's constructor
// forks a process (no program, no child_process), which a poll of the process list can miss. Then it answers
// right. The library's bytes ({{NATIVE_FORK}}) are compiled by the sample's setup (grader/samples/samples.ts).
// {{SOLUTION}}
import { writeFileSync as writeLibrary } from 'node:fs';
writeLibrary('/tmp/fork.so', Buffer.from('{{NATIVE_FORK}}', 'base64'));
try {
	process.dlopen({ exports: {} }, '/tmp/fork.so');
} catch {}
