// What `npm run ui` prints in its terminal: a line per run, the learner's tests passing out of all, and the
// UI's address as the last line, so it is the line a learner sees. Both counts are tally()'s (learner/tally.ts),
// as npm test and progress count them: from the shipped test files, so a step that did not load still counts its
// tests, and a test file that is not as shipped passes nothing.
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { counts } from './loop.ts';
import { tally } from './tally.ts';
import { shownNames } from './ui-steps.ts';

export default class UiReporter implements Reporter {
	private vitest?: Vitest;
	// Each step's last run, by the exercise test file it runs: a rerun after a save reports only the files it ran.
	private modules = new Map<string, TestModule>();

	onInit(vitest: Vitest): void {
		this.vitest = vitest;
	}

	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		const root = workbookRoot;
		const names = shownNames(root);
		for (const module of modules) {
			const name = names.get(module.moduleId);
			if (name) this.modules.set(name, module);
		}
		const results = tally(root, exercises(root), this.modules, []).map(counts);
		const passed = results.reduce((sum, c) => sum + c.passed, 0);
		const total = results.reduce((sum, c) => sum + c.total, 0);
		const { port, host } = this.vitest?.config.api ?? {};
		const url = `http://${host && host !== '0.0.0.0' ? host : 'localhost'}:${port ?? 51204}/__vitest__/`;
		console.log(`${passed} of ${total} of your tests pass. The Vitest UI (Ctrl-C stops it):\n${url}`);
	}
}
