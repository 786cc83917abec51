// The system programs some checks need (a browser, a sandbox), found or installed from Debian's packages.
//
//   const chromium = needProgram('chromium');   // '/usr/bin/chromium', or throws MissingProgram
//
// A program on the PATH is used as it is. When it is missing and we are root on a machine with apt-get, it is
// installed (`apt-get update` once, then `apt-get install -y <package>`). Otherwise MissingProgram says, in one
// line, the one command that installs it. Nothing is downloaded from anywhere but Debian's package lists.
import { spawnSync } from 'node:child_process';

// Program name to the Debian package that ships it.
export const systemPrograms = {
	chromium: 'chromium',
	bwrap: 'bubblewrap',
	strace: 'strace'
} as const;
export type SystemProgram = keyof typeof systemPrograms;

export class MissingProgram extends Error {
	constructor(
		readonly program: SystemProgram,
		why: string
	) {
		super(
			`${program} is not installed (${why}). Install it with: sudo apt-get install -y ${systemPrograms[program]}`
		);
	}
}

export function findProgram(program: string): string | null {
	const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() : null;
}

let listsUpdated = false;
const apt = (args: string[]) =>
	spawnSync('apt-get', args, {
		encoding: 'utf8',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		stdio: ['ignore', 'pipe', 'pipe']
	});

export function needProgram(program: SystemProgram): string {
	const found = findProgram(program);
	if (found) return found;
	if (process.getuid?.() !== 0) throw new MissingProgram(program, 'and only root can install it here');
	if (!findProgram('apt-get')) throw new MissingProgram(program, 'and this machine has no apt-get');
	if (!listsUpdated) {
		const updated = apt(['update']);
		if (updated.status !== 0)
			throw new MissingProgram(program, `apt-get update failed: ${updated.stderr.trim()}`);
		listsUpdated = true;
	}
	const installed = apt(['install', '-y', systemPrograms[program]]);
	if (installed.status !== 0)
		throw new MissingProgram(
			program,
			`apt-get install failed: ${installed.stderr.trim().split('\n').at(-1)}`
		);
	const now = findProgram(program);
	if (!now)
		throw new MissingProgram(program, 'apt-get installed the package but the program is not on the PATH');
	return now;
}
