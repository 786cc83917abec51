// A killed grader's folders: whenever a grader dies, the next sweep removes every folder it left, kills what
// still works in them, and never touches a live grader's folder, even one that grader is making that instant.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../lib/run.ts';
import { clusterParent } from './cluster.ts';
import { removeLeftovers } from './leftovers.ts';

const leftovers = JSON.stringify(join(import.meta.dirname, 'leftovers.ts'));
const parents: string[] = [];
afterAll(() => {
	for (const parent of parents) rmSync(parent, { recursive: true, force: true });
});

function freshParent(): string {
	const parent = mkdtempSync(join(clusterParent(), 'grade-postgres-sweep-'));
	chmodSync(parent, 0o755);
	parents.push(parent);
	return parent;
}

// A grader in a process of its own, running `body` (it has `parent`, `stampedFolder`, `join` and `fs`); it
// says "ready" first, then whatever `body` prints (`said()`: all it printed so far).
function grader(
	parent: string,
	body: string
): { child: ChildProcess; ready: Promise<void>; said: () => string } {
	const script = [
		`import { stampedFolder } from ${leftovers};`,
		"import * as fs from 'node:fs';",
		"import { join } from 'node:path';",
		`const parent = ${JSON.stringify(parent)};`,
		"console.log('ready');",
		body
	].join('\n');
	const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
		stdio: ['ignore', 'pipe', 'inherit']
	});
	let out = '';
	const ready = new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString('utf8');
			if (out.includes('ready\n')) resolve();
		});
		child.once('exit', (code) => reject(new Error(`the grader exited before it was ready (code ${code})`)));
	});
	return { child, ready, said: () => out };
}

const exited = (child: ChildProcess) =>
	new Promise<void>((resolve) =>
		child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())
	);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Folders made and removed as fast as a grader can: a kill lands at any step of making or removing one.
const churn = 'for (;;) fs.rmSync(stampedFolder(parent, "grade-postgres-run-"), { recursive: true });';
// A live grader's folders, each kept 20 ms and written into before it goes: a folder swept away from under
// it throws, and the grader exits.
const holding = [
	'const nap = new Int32Array(new SharedArrayBuffer(4));',
	'for (;;) {',
	'	const folder = stampedFolder(parent, "grade-postgres-run-");',
	'	Atomics.wait(nap, 0, 0, 20);',
	'	fs.writeFileSync(join(folder, "still-mine"), "");',
	'	fs.rmSync(folder, { recursive: true });',
	'}'
].join('\n');

describe('removeLeftovers', () => {
	it(
		'removes whatever folder a grader killed at any instant left, and keeps a live grader’s',
		{ timeout: 120_000 },
		async () => {
			const parent = freshParent();
			// Six graders killed at moments of their own; a seventh lives on, making folders throughout.
			const killed = [1, 2, 3, 4, 5, 6].map(() => grader(parent, churn));
			const live = grader(parent, holding);
			await Promise.all([...killed, live].map((each) => each.ready));
			for (const [n, each] of killed.entries()) {
				await pause(15 + 23 * n);
				each.child.kill('SIGKILL');
				await exited(each.child);
			}
			for (let sweep = 0; sweep < 10; sweep++) {
				await removeLeftovers(parent);
				await pause(10);
			}
			// The live grader's folders were never swept away from under it (it would have thrown and exited).
			expect(isAlive(live.child.pid!), 'the live grader still makes its folders').toBe(true);
			live.child.kill('SIGKILL');
			await exited(live.child);
			await removeLeftovers(parent);
			expect(readdirSync(parent), 'left after the graders died').toEqual([]);
		}
	);

	it(
		'kills a process still writing in a gone grader’s folder, then removes the folder',
		{ timeout: 60_000 },
		async () => {
			const parent = freshParent();
			// The grader starts a writer of its own in a fresh folder (a copy whose parent-death signal never came),
			// says both, and exits.
			const writer = [
				'const folder = stampedFolder(parent, "grade-postgres-run-");',
				'fs.mkdirSync(join(folder, "data"));',
				"const writer = (await import('node:child_process')).spawn('sh', ['-c', 'while :; do : > \"$0/data/$$-$RANDOM\" || :; done', folder], { detached: true, stdio: 'ignore' });",
				'writer.unref();',
				'console.log(JSON.stringify({ folder, writer: writer.pid }));'
			].join('\n');
			const { child, ready, said: output } = grader(parent, writer);
			await ready;
			await exited(child);
			const said = JSON.parse(output().split('\n')[1]!) as { folder: string; writer: number };
			try {
				expect(isAlive(said.writer), 'the writer runs once its grader is gone').toBe(true);
				expect(await removeLeftovers(parent)).toBe(1);
				expect(isAlive(said.writer), 'the writer, after the sweep').toBe(false);
				expect(readdirSync(parent)).toEqual([]);
			} finally {
				if (isAlive(said.writer)) process.kill(said.writer, 'SIGKILL');
			}
		}
	);
});
