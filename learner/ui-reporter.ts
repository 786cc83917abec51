// What `npm run ui` prints in its terminal: a line per run, the learner's tests passing out of all, and the
// UI's address as the last line, so it is the line a learner sees. Both counts are tally()'s (learner/tally.ts),
// as npm test and progress count them: from the shipped test files, so a step that did not load still counts its
// tests, and a test file that is not as shipped passes nothing.
import type { Reporter, RunnerTask, RunnerTaskResultPack, TestModule, Vitest } from 'vitest/node';
import { hangsIn } from '../lib/watchdog/hangs.ts';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { counts } from './loop.ts';
import { tally } from './tally.ts';
import { shownNames } from './ui-steps.ts';
import { pathsFromTheWorkbook } from './ui-wire.ts';

export default class UiReporter implements Reporter {
	private vitest?: Vitest;
	// Each step's last run, by the exercise test file it runs: a rerun after a save reports only the files it ran.
	private modules = new Map<string, TestModule>();

	onInit(vitest: Vitest): void {
		this.vitest = vitest;
		// The page is sent every path from the workbook, never where the workbook lies (ui-wire.ts).
		pathsFromTheWorkbook(vitest, workbookRoot);
	}

	async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
		await this.showTheHangs();
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
		// The port the UI took: when the one asked for is taken, Vite takes the next free one.
		const address = this.vitest?.vite.httpServer?.address();
		const bound = typeof address === 'object' && address ? address.port : (port ?? 51204);
		const url = `http://${host && host !== '0.0.0.0' ? host : 'localhost'}:${bound}/__vitest__/`;
		console.log(`${passed} of ${total} of your tests pass. The Vitest UI (Ctrl-C stops it):\n${url}`);
	}

	// A thread stopped by the watchdog (lib/watchdog/pool.ts) sent no last word on its file: the watchdog fails
	// its stuck test in Vitest's state, and this sends that file's tasks to the open pages as any update goes,
	// before the run's end, or they would show the file running until the page is reloaded.
	private async showTheHangs(): Promise<void> {
		const vitest = this.vitest as
			(Vitest & { report?: (name: string, ...args: unknown[]) => Promise<void> }) | undefined;
		const files = hangsIn().flatMap((hang) => vitest?.state.filesMap.get(hang.file) ?? []);
		if (!files.length || !vitest?.report) return;
		const all = (task: RunnerTask): RunnerTask[] => [
			task,
			...('tasks' in task ? task.tasks.flatMap(all) : [])
		];
		const packs: RunnerTaskResultPack[] = files
			.flatMap(all)
			.map((task) => [
				task.id,
				task.result ?? (task.mode === 'skip' ? { state: 'skip' } : undefined),
				task.meta
			]);
		await vitest.report('onTaskUpdate', packs, []);
	}
}
