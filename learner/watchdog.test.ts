// A synchronous endless loop in learner code, run as the learner runs it, in a throwaway copy of the workbook:
// the loop's commands stop it within the time limit, say which test and which step did not return, exit 1,
// leave nothing running, and still count every other exercise.
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { run } from '../lib/run.ts';
import { tempWorkbook } from './temp-workbook.ts';

// 01's solution with the issue's loop before its save: `while (this.db.tickets.length >= 0) {}`.
function loopIn01(root: string): void {
	const file = join(root, 'exercises/01-first-handler/handler.ts');
	const solution = readFileSync(join(root, 'solutions/01-first-handler/handler.ts'), 'utf8');
	const save = '\t\tconst ticketId = this.db.tickets.length + 1;';
	expect(solution).toContain(save);
	writeFileSync(file, solution.replace(save, `\t\twhile (this.db.tickets.length >= 0) {}\n${save}`));
}

// The processes whose working folder is the copy: none once a command has ended (Linux's /proc; elsewhere none).
function runningIn(root: string): string[] {
	let pids: string[] = [];
	try {
		pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {
		return [];
	}
	return pids.filter((pid) => {
		try {
			return readlinkSync(`/proc/${pid}/cwd`).startsWith(root);
		} catch {
			return false;
		}
	});
}

const env = { ...process.env, NO_COLOR: '1', LEARNER_TIME_LIMIT: '3' };

describe('a learner loop that never returns', () => {
	it('npm test names the test, the schedule and the delivery, exits 1, and leaves nothing running', async () => {
		const { root, remove } = tempWorkbook();
		try {
			loopIn01(root);
			const started = Date.now();
			const ran = await run('npm', ['test', 'exercises/01'], { cwd: root, env, timeoutMs: 90_000 });
			const seconds = (Date.now() - started) / 1000;
			expect(ran.timedOut, ran.output).toBe(false);
			expect(ran.code, ran.output).toBe(1);
			expect(ran.output).toContain('✘ 01 · The first handler: 0 of 16 tests pass');
			expect(ran.output).toContain('Your code did not return within 3 s');
			expect(ran.output).toContain('One delivery, one ticket');
			expect(ran.output).toMatch(/at delivery 1 \([^)]*\) of schedule "one-delivery"/);
			expect(seconds, 'the limit, plus starting Vitest').toBeLessThan(60);
			expect(runningIn(root)).toEqual([]);
		} finally {
			remove();
		}
	}, 120_000);

	it('npm run progress stops it and still counts every other exercise', async () => {
		const { root, remove } = tempWorkbook();
		try {
			loopIn01(root);
			const ran = await run('npm', ['run', 'progress'], { cwd: root, env, timeoutMs: 150_000 });
			expect(ran.timedOut, ran.output).toBe(false);
			expect(ran.code, ran.output).toBe(1);
			expect(ran.output).toContain('Your code did not return within 3 s');
			for (const exercise of exercises(root)) {
				const row = ran.output
					.split('\n')
					.find((line) => line.includes(`${exercise.id} · ${exercise.title}`));
				expect(row, `${exercise.id}'s row`).toMatch(/\d+\/\d+/);
			}
			expect(runningIn(root)).toEqual([]);
		} finally {
			remove();
		}
	}, 180_000);
});
