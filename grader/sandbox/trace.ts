// strace's record of one run, written from outside its sandbox and read as it grows (attempts.ts judges it).
//
//   const trace = openTrace();                               // a file in a folder the sandbox never binds
//   [strace, ...straceArgs(trace.file), '--', ...command]    // how a run is started under it
//   const tracer = followTrace(trace, watch, stop);          // stop(): at the first attempt, or past maxTrace
//   tracer.end();                                            // the rest of the record read, the file gone
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traced, type AttemptWatch } from './attempts.ts';
import { privateStampedFolder } from './leftovers.ts';

// strace's options: follow every process, stop only on the traced calls (a seccomp filter), strings in hex,
// no signal or exit lines. Pids a call names stay as the run names them, in its own PID namespace (attempts.ts
// judges them there): --pidns-translation cost a run some 0.1 s of strace's CPU and half a second.
const straceFlags = ['-f', '--seccomp-bpf', '-qq', '-xx', '-s', '256', '-e', 'signal=none'];
// A run whose trace passes this is stopped: honest runs write well under 1 MB.
export const maxTrace = 64 * 1024 * 1024;

// strace's whole command line but the program: its options, what it traces, where it writes.
export const straceArgs = (file: string) => [...straceFlags, '-e', `trace=${traced.join(',')}`, '-o', file];

// Whether strace can trace here (a container may forbid ptrace): the reason when it cannot.
export function straceFails(strace: string): string | null {
	const probe = spawnSync(strace, [...straceArgs('/dev/null'), 'true'], { encoding: 'utf8' });
	return probe.status === 0 ? null : (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
}

// The file strace writes, in a folder of its own, read from where the last read ended.
export function openTrace() {
	// Stamped, as every folder of a grading is (leftovers.ts): strace, which names it, goes with it.
	const dir = privateStampedFolder(tmpdir(), 'grade-trace-');
	const file = join(dir, 'trace');
	writeFileSync(file, '');
	const fd = openSync(file, 'r');
	let offset = 0;
	const chunk = Buffer.alloc(1024 * 1024);
	return {
		file,
		size: () => offset,
		readMore(): string {
			let text = '';
			for (let read = 1; read > 0 && offset <= maxTrace;) {
				read = readSync(fd, chunk, 0, chunk.length, offset);
				offset += read;
				text += chunk.toString('latin1', 0, read);
			}
			return text;
		},
		// The record and its folder, which holds nothing else: removed as such, not walked.
		close() {
			closeSync(fd);
			try {
				unlinkSync(file);
				rmdirSync(dir);
			} catch {
				rmSync(dir, { recursive: true, force: true });
			}
		}
	};
}

// The trace, read as it grows (every 25 ms, and once more at the end), line by line: the first attempt stops the
// run (it scores 0 whatever it answers), and so does a trace past maxTrace.
export function followTrace(trace: ReturnType<typeof openTrace>, watch: AttemptWatch, stop: () => void) {
	let partial = '';
	let flooded = false;
	const read = () => {
		if (watch.attempt || flooded) return;
		const text = trace.readMore();
		const lines = (partial + text).split('\n');
		partial = lines.pop()!;
		for (const line of lines) if (watch.line(line)) return stop();
		if (trace.size() > maxTrace) {
			flooded = true;
			stop();
		}
	};
	const reader = setInterval(read, 25);
	return {
		flooded: () => flooded,
		pause: () => clearInterval(reader),
		// The rest of the record, then the file goes.
		end() {
			read();
			trace.close();
		}
	};
}
