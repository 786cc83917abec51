// npm run watch, driven as a learner drives it, through its standard input, in a throwaway copy: while an
// exercise is red the key to move on does nothing; a save that turns it green offers the key; pressing it
// watches the next exercise. Nothing is left running.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextKey } from './loop.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';

// A watch run whose output can be waited on: until() resolves when the output after `from` matches.
function startWatch(root: string, exercise: string) {
	const child = spawn('npm', ['run', 'watch', '--', exercise], {
		cwd: root,
		env: { ...process.env, NO_COLOR: '1' },
		detached: true
	});
	let output = '';
	child.stdout.on('data', (chunk) => (output += String(chunk)));
	child.stderr.on('data', (chunk) => (output += String(chunk)));
	const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
	return {
		press: (key: string) => child.stdin.write(key),
		output: () => output,
		until: async (pattern: RegExp, from = 0, seconds = 60) => {
			const deadline = Date.now() + seconds * 1000;
			while (!pattern.test(output.slice(from))) {
				if (Date.now() > deadline) throw new Error(`watch never printed ${pattern}; it printed:\n${output}`);
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			return output.length;
		},
		stop: async () => {
			try {
				process.kill(-child.pid!, 'SIGINT');
			} catch {
				// Already gone.
			}
			const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
			await ended;
			clearTimeout(timer);
		}
	};
}

describe('npm run watch', () => {
	it(`offers "${nextKey}" once the exercise turns green, and then watches the next one`, async () => {
		const { root, remove } = tempWorkbook();
		const watch = startWatch(root, '01');
		try {
			let seen = await watch.until(/First failure: /);
			expect(watch.output()).not.toContain(`Press ${nextKey}`);
			// Red: the key does nothing.
			watch.press(nextKey);
			await new Promise((resolve) => setTimeout(resolve, 1500));
			expect(watch.output().slice(seen), 'the key while 01 is red').not.toMatch(/02 · sameEvent and replay:/);
			// A save that makes it green runs it again and offers the key.
			solve(root, '01-first-handler', ['handler.ts']);
			seen = await watch.until(/01 is green\.[^]*Press n to move on to 02 · sameEvent and replay/, seen);
			watch.press(nextKey);
			await watch.until(/✘ 02 · sameEvent and replay: 0 of \d+ tests pass[^]*First failure: /, seen);
			expect(watch.output()).toContain('exercises/02-same-event/');
		} finally {
			await watch.stop();
			remove();
		}
	}, 180_000);
});
