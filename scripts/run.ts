// Runs a command and hands back what it printed, for the maintainers' scripts.
import { spawn } from 'node:child_process';

export type Ran = { code: number; output: string };

export function run(
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}
): Promise<Ran> {
	return new Promise((resolve) => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', (error) => resolve({ code: 127, output: String(error) }));
		child.on('close', (code) => resolve({ code: code ?? 1, output }));
	});
}

export const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
