// Where learners put the workbook: verify plays one exercise that needs PostgreSQL (06, solved) from a scratch
// copy in each of these homes, and each run must be green.
//
//   npx tsx tools/homes.ts          // prints one line per home, exits 1 if one is not green
//
// - a folder of mode 0700 (root's home on Debian and in most containers), whose path has spaces and
//   non-ASCII letters: as root, PostgreSQL runs as the `postgres` user, who cannot enter it;
// - as root, an ordinary user (`workbook-learner`, made with useradd once per machine) in a home of their own,
//   mode 0700: PostgreSQL then runs as that user, with a template cluster of their own;
// - a machine with no /dev/shm (some containers and sandboxes): the whole of `npm run progress`, under
//   bubblewrap with a read-only /dev that has only null, zero, random and urandom. PostgreSQL can run there (its
//   clusters go under the OS temp dir), so every exercise must be counted and green, 06 included.
// The copy is the working tree's files and node_modules hard-linked (copied across file systems); it is removed
// at the end. Each run takes a few seconds: one exercise, not the whole progress.
import { execFileSync } from 'node:child_process';
import {
	chmodSync,
	chownSync,
	cpSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	realpathSync,
	rmSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises } from '#harness/core/manifest.ts';
import { run } from '../lib/run.ts';
import { isMain } from '../lib/main-module.ts';

export type Home = { name: string; passed: boolean; problem: string };

const exercise = '06';
const learner = 'workbook-learner';

// The working tree as a learner would have it, with every exercise solved.
function copyWorkbook(to: string): void {
	const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
		.toString()
		.split('\0')
		.filter(Boolean);
	for (const file of files) cpSync(file, join(to, file), { dereference: false, errorOnExist: false });
	try {
		execFileSync('cp', ['-al', realpathSync('node_modules'), join(to, 'node_modules')], { stdio: 'ignore' });
	} catch {
		rmSync(join(to, 'node_modules'), { recursive: true, force: true });
		execFileSync('cp', ['-a', realpathSync('node_modules'), join(to, 'node_modules')], { stdio: 'ignore' });
	}
	for (const { folder } of exercises())
		cpSync(join('solutions', folder), join(to, 'exercises', folder), { recursive: true });
}

// The folders of a copy become the user's; its hard-linked files stay as they are (they are the originals).
function giveFolders(folder: string, uid: number, gid: number): void {
	chownSync(folder, uid, gid);
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) giveFolders(path, uid, gid);
		else if (!path.includes('/node_modules/')) chownSync(path, uid, gid);
	}
}

function userIds(name: string): { uid: number; gid: number } {
	try {
		execFileSync('id', ['-u', name], { stdio: 'ignore' });
	} catch {
		execFileSync('useradd', ['--no-create-home', '--shell', '/bin/sh', name], { stdio: 'ignore' });
	}
	const id = (flag: string) => Number(execFileSync('id', [flag, name]).toString().trim());
	return { uid: id('-u'), gid: id('-g') };
}

async function playIn(name: string, workbook: string, asUser?: string): Promise<Home> {
	const args = ['learner/npm-test.js', `exercises/${exercise}`];
	const [command, commandArgs] = asUser
		? ['runuser', ['-u', asUser, '--', process.execPath, ...args]]
		: [process.execPath, args];
	const ran = await run(command, commandArgs, { cwd: workbook, timeoutMs: 120_000 });
	const green = ran.code === 0 && ran.output.includes(`✔ ${exercise} `);
	const problem = `${name}: npm test exercises/${exercise} in "${workbook}" exited ${ran.code}${
		ran.timedOut ? ' (timed out)' : ''
	}:\n${ran.output.trim().split('\n').slice(-25).join('\n')}`;
	return { name, passed: green, problem: green ? '' : problem };
}

// The devices a command keeps under a /dev of its own, so that /dev/shm is not there.
const devices = ['null', 'zero', 'random', 'urandom'].flatMap((name) => [
	'--dev-bind',
	`/dev/${name}`,
	`/dev/${name}`
]);

async function progressWithoutShm(workbook: string): Promise<Home> {
	const name = 'no /dev/shm: npm run progress under bubblewrap, with a /dev of its own';
	const inside = [
		'sh',
		'-c',
		'if test -e /dev/shm; then echo "/dev/shm is still there"; exit 1; fi; exec npm run progress'
	];
	// Read-only, as a learner's /dev is to them: nothing can make a /dev/shm on the way.
	const dev = ['--tmpfs', '/dev', ...devices, '--remount-ro', '/dev'];
	const args = ['--dev-bind', '/', '/', ...dev, '--chdir', workbook, ...inside];
	// What is checked is the missing /dev/shm, not the machine's speed: a busy machine gets a generous limit.
	const env = { ...process.env, NO_COLOR: '1', LEARNER_TIME_LIMIT: '60' };
	const ran = await run('bwrap', args, { cwd: workbook, env, timeoutMs: 300_000 });
	// PostgreSQL can run here (its clusters go under the OS temp dir): so every exercise is counted, and green.
	const problems: string[] = [];
	for (const { id, title } of exercises()) {
		const row = ran.output.split('\n').find((line) => line.includes(`${id} · ${title}`));
		if (!row || !/\d+\/\d+/.test(row)) problems.push(`${id} is not counted`);
		else if (!row.includes('✔')) problems.push(`${id} is red`);
	}
	if (ran.code !== 0 && !problems.length) problems.push('progress did not exit 0');
	const passed = problems.length === 0 && !ran.timedOut;
	const problem = `${name}: ${ran.timedOut ? 'timed out' : problems.join('; ')} (exit ${ran.code}):\n${ran.output
		.trim()
		.split('\n')
		.slice(-25)
		.join('\n')}`;
	return { name, passed, problem: passed ? '' : problem };
}

export async function learnersHomes(): Promise<Home[]> {
	const scratch = mkdtempSync(join(tmpdir(), 'workbook-homes-'));
	chmodSync(scratch, 0o755);
	try {
		const homes: Home[] = [];
		const privateHome = join(scratch, 'a home 0700 é');
		const workbook = join(privateHome, 'the workbook ü');
		mkdirSync(workbook, { recursive: true });
		chmodSync(privateHome, 0o700);
		copyWorkbook(workbook);
		const who = process.getuid?.() === 0 ? 'root' : 'this user';
		homes.push(await playIn(`${who} in a 0700 home, a path with spaces and non-ASCII letters`, workbook));
		homes.push(await progressWithoutShm(workbook));
		if (process.getuid?.() === 0) {
			const { uid, gid } = userIds(learner);
			const theirHome = join(scratch, `${learner} home ß`);
			const theirs = join(theirHome, 'workbook');
			mkdirSync(theirs, { recursive: true });
			copyWorkbook(theirs);
			giveFolders(theirHome, uid, gid);
			chmodSync(theirHome, 0o700);
			homes.push(
				await playIn(`an ordinary user (${learner}, made with useradd) in their 0700 home`, theirs, learner)
			);
		}
		return homes;
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

if (isMain(import.meta.url)) {
	const homes = await learnersHomes();
	for (const home of homes) console.log(home.passed ? `✔ ${home.name}` : `✘ ${home.problem}`);
	process.exitCode = homes.every((home) => home.passed) ? 0 : 1;
}
