// Runs a command and hands back what it printed, for the maintainers' scripts and the grader.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Ran = { code: number; output: string; timedOut: boolean; truncated: boolean };
export type RunOptions = {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	// Wall-clock limit: past it the whole process group is killed (SIGKILL), children and all.
	timeoutMs?: number;
	// Keep at most this many characters of output; the rest is counted, not kept.
	maxOutput?: number;
};

export function run(command: string, args: string[], options: RunOptions = {}): Promise<Ran> {
	const limit = options.maxOutput ?? Infinity;
	// With a time limit the child leads its own process group, so one kill reaches everything it started.
	const group = options.timeoutMs !== undefined;
	return new Promise((resolve) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			detached: group
		});
		let output = '';
		let dropped = 0;
		let timedOut = false;
		const keep = (chunk: Buffer) => {
			const text = chunk.toString();
			const room = Math.max(0, limit - output.length);
			output += text.slice(0, room);
			dropped += Math.max(0, text.length - room);
		};
		const killGroup = () => {
			if (!group || child.pid === undefined) return;
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// Already gone.
			}
		};
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						killGroup();
					}, options.timeoutMs);
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		// When the leader exits, whatever it left behind in its group goes too (and stops holding our pipes).
		child.on('exit', killGroup);
		child.on('error', (error) => {
			clearTimeout(timer);
			resolve({ code: 127, output: String(error), timedOut, truncated: false });
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			if (dropped) output += `\n[… ${dropped} more characters of output cut]`;
			resolve({ code: code ?? 1, output, timedOut, truncated: dropped > 0 });
		});
	});
}

export const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

// Alive, and not a zombie waiting for a parent (in a container, nobody may reap it).
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return true;
	}
}
