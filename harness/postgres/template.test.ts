// A copy or a server started through diesWithThisProcess goes when its caller goes, even killed outright, and
// never starts at all once its caller is gone.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../lib/run.ts';
import { ownStamp, startTime } from './stamp.ts';
import { clusterTemplate, diesWithThisProcess } from './template.ts';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'workbook-dies-with-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!existsSync('/usr/bin/setpriv'))('diesWithThisProcess', () => {
	it('runs the program while its caller lives', async () => {
		const marker = join(folder, 'ran');
		await run(...diesWithThisProcess('SIGKILL', 'touch', [marker]));
		expect(existsSync(marker)).toBe(true);
	});

	it('does not run the program when its parent is no longer its caller', async () => {
		// A shell in between stands for a caller that died before the parent-death signal was set: the program's
		// parent is then another process (init, or a subreaper), and no signal would ever come.
		const marker = join(folder, 'orphan-ran');
		const [program, args] = diesWithThisProcess('SIGKILL', 'touch', [marker]);
		const { stdout } = await run('sh', ['-c', '"$@"; echo "exit $?"', 'sh', program, ...args]);
		expect(stdout.trim()).toMatch(/^exit [1-9]/);
		expect(existsSync(marker), 'the program ran with another parent').toBe(false);
	});

	it('ends the program when its caller is killed outright', { timeout: 60_000 }, async () => {
		const script = [
			`import { diesWithThisProcess } from ${JSON.stringify(join(import.meta.dirname, 'template.ts'))};`,
			"import { spawn } from 'node:child_process';",
			"const sleeper = spawn(...diesWithThisProcess('SIGKILL', 'sleep', ['600']), { stdio: 'ignore' });",
			'console.log(sleeper.pid);',
			'setInterval(() => {}, 1000);'
		].join('\n');
		const caller = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
			stdio: ['ignore', 'pipe', 'inherit']
		});
		const sleeper = await new Promise<number>((resolve, reject) => {
			caller.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString('utf8').trim())));
			caller.once('exit', (code) => reject(new Error(`the caller exited first (code ${code})`)));
		});
		try {
			// The sleeper is running (past the shell's check) before its caller is killed.
			for (let waited = 0; waited < 10_000; waited += 50) {
				if (/^sleep\0/.test(commandLine(sleeper))) break;
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			expect(commandLine(sleeper)).toBe('sleep\0' + '600\0');
			caller.kill('SIGKILL');
			for (let waited = 0; waited < 5000 && isAlive(sleeper); waited += 50)
				await new Promise((resolve) => setTimeout(resolve, 50));
			expect(isAlive(sleeper), 'the sleeper outlived its killed caller').toBe(false);
		} finally {
			if (isAlive(sleeper)) process.kill(sleeper, 'SIGKILL');
			caller.kill('SIGKILL');
		}
	});
});

describe('a build of the template whose maker was killed', () => {
	it("is removed by the next one that looks; a live maker's build and unstamped folders are kept", async () => {
		const place = mkdtempSync(join(folder, 'builds-'));
		const template = join(place, 'template');
		// A maker that is gone: a process that ran and was reaped, under the stamp it had.
		const gone = spawn('sleep', ['60']);
		const goneStamp = `${gone.pid}-${startTime(gone.pid!)}`;
		gone.kill('SIGKILL');
		await new Promise((resolve) => gone.once('exit', resolve));
		const abandoned = `template.building-${goneStamp}-Ab12Cd`;
		const live = `template.building-${ownStamp()}-Ef34Gh`;
		const unstamped = ['template.building-Ij56Kl', `other.building-${goneStamp}-Mn78Op`];
		for (const name of [abandoned, live, ...unstamped])
			mkdirSync(join(place, name, 'data'), { recursive: true });
		let building = '';
		const made = await clusterTemplate((data) => {
			building = data;
			return { initialise: async () => Promise.reject(new Error('initdb failed')) };
		}, template);
		expect(made).toBeNull();
		expect(building, 'the new build is named with its maker').toMatch(
			new RegExp(`/template\\.building-${ownStamp()}-[A-Za-z0-9]{6}/data$`)
		);
		expect(readdirSync(place).sort()).toEqual([live, ...unstamped].sort());
	});
});

// A process's command line, its arguments ended by NULs; empty when it is gone.
function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
	} catch {
		return '';
	}
}
