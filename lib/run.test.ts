import { describe, expect, it } from 'vitest';
import { isAlive, run } from './run.ts';

describe('run: a wall-clock limit and a cap on output', () => {
	it('kills the whole process group at the limit, children included', async () => {
		// The shell starts a sleeper in the background, prints its pid, and then waits forever itself.
		const ran = await run('sh', ['-c', 'sleep 60 & echo $!; sleep 60'], { timeoutMs: 300 });
		expect(ran.timedOut).toBe(true);
		const child = Number(ran.output.trim());
		expect(child).toBeGreaterThan(0);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(isAlive(child), 'the background sleeper was killed too').toBe(false);
	});

	it('kills what a command left running behind it when it exits', async () => {
		const ran = await run('sh', ['-c', 'sleep 60 > /dev/null & echo $!'], { timeoutMs: 10_000 });
		expect(ran.timedOut).toBe(false);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(isAlive(Number(ran.output.trim()))).toBe(false);
	});

	it('keeps only the first characters of a flood of output, and says how much it cut', async () => {
		const ran = await run('sh', ['-c', 'yes | head -c 100000'], { maxOutput: 1000, timeoutMs: 10_000 });
		expect(ran.truncated).toBe(true);
		expect(ran.output).toMatch(/^(y\n){500}\n\[… 99000 more characters of output cut\]$/);
	});
});
