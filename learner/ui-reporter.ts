// What `npm run ui` prints in its terminal: a line per run, the learner's tests passing out of all, and the
// UI's address as the last line, so it is the line a learner sees. All is what the exercises ship
// (learner/shipped/tests.json), as progress counts it: a step that did not load still counts its tests.
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { shippedTestCount, testCounts } from './shipped.ts';

export default class UiReporter implements Reporter {
	private vitest?: Vitest;
	// A rerun after a save reports only the files it ran: the others keep their last counts.
	private counts = new Map<string, { passed: number; total: number }>();

	onInit(vitest: Vitest): void {
		this.vitest = vitest;
	}

	onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
		for (const module of modules) {
			const tests = [...module.children.allTests()];
			const passed = tests.filter((test) => test.result().state === 'passed').length;
			this.counts.set(module.moduleId, { passed, total: tests.length });
		}
		const all = [...this.counts.values()];
		const passed = all.reduce((sum, c) => sum + c.passed, 0);
		// The UI runs from its own folder of steps (.learner/ui/): the counts are the workbook's.
		const root = workbookRoot;
		const shipped = testCounts(root);
		const known = exercises(root).reduce((sum, e) => sum + shippedTestCount(root, e, shipped), 0);
		const total = Math.max(
			known,
			all.reduce((sum, c) => sum + c.total, 0)
		);
		const { port, host } = this.vitest?.config.api ?? {};
		const url = `http://${host && host !== '0.0.0.0' ? host : 'localhost'}:${port ?? 51204}/__vitest__/`;
		console.log(`${passed} of ${total} of your tests pass. The Vitest UI (Ctrl-C stops it):\n${url}`);
	}
}
