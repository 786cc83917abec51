// Runs in each test thread before a test file (vitest.config.ts's setupFiles): starts the beat the watchdog
// listens to (lib/watchdog/pool.ts) and says, before each test, which test is running.
import { beforeEach, expect } from 'vitest';
import { running, startBeating } from '#harness/core/watchdog.ts';

startBeating();
const file = () => expect.getState().testPath ?? '';
running(JSON.stringify({ file: file(), test: '' }), 'test');
running('loading the test file and the files it imports');
beforeEach(({ task }) => {
	const name = expect.getState().currentTestName ?? '';
	const test = name.split(' > ').slice(1).join(' › ');
	running(JSON.stringify({ file: file(), test, id: task.id }), 'test');
	running('');
});
