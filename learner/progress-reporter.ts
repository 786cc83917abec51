// npm run progress: a Vitest reporter that prints where the learner is instead of every failure.
// Running as a reporter keeps it to one quick `vitest run`: no second process, no report file to read back.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { exercises } from '#harness/core/manifest.ts';
import { formatProgress, terminalPaint as paint, testName, type ExerciseResult } from './progress.ts';
import { exerciseTestFile } from './test-files.ts';
import { checkTypes, saidTypeError, typeErrorsIn, typeRule, type TypeError } from './types.ts';
import { hangsIn } from '../lib/watchdog/hangs.ts';
import { borrowedInWorkbook } from './borrowed.ts';

export default class ProgressReporter implements Reporter {
	private root = process.cwd();
	// The compiler runs beside the tests (learner/types.ts).
	private types?: Promise<TypeError[]>;

	onInit(vitest: Vitest): void {
		this.root = vitest.config.root;
		this.types = checkTypes(this.root);
	}

	async onTestRunEnd(
		modules: ReadonlyArray<TestModule>,
		errors: ReadonlyArray<unknown>,
		reason: TestRunEndReason
	): Promise<void> {
		const typeErrors = (await this.types) ?? [];
		const list = exercises(this.root);
		const files = modules.map((module) => ({
			module,
			file: exerciseTestFile(this.root, list, module.moduleId)
		}));
		const results: ExerciseResult[] = list.map((exercise) => {
			const result: ExerciseResult = { exercise, passed: 0, total: 0 };
			const types = typeErrorsIn(typeErrors, exercise);
			const [borrowed] = borrowedInWorkbook(this.root, exercise);
			if (borrowed) {
				result.borrowed = borrowed;
				result.firstRed = { test: 'it imports an answer the harness gives only later', message: borrowed };
			}
			if (types.length) {
				result.typeErrors = types.length;
				const message = [saidTypeError(types[0]!), typeRule(exercise.id)].join('\n');
				result.firstRed ??= { test: 'the compiler finds type errors', message };
			}
			for (const { module, file } of files) {
				if (file?.exercise !== exercise) continue;
				const loadError = module.errors()[0];
				if (loadError && !result.firstRed)
					result.firstRed = {
						test: `${relative(this.root, module.moduleId)} did not load`,
						message: loadError.message
					};
				// separate.test.ts tests separate.ts, which the exercise gives: its green tests are not the learner's.
				const givenCode = file.givenCode;
				for (const test of module.children.allTests()) {
					const state = test.result().state;
					if (givenCode && state === 'passed') {
						result.given = (result.given ?? 0) + 1;
						continue;
					}
					result.total += 1;
					if (state === 'passed') result.passed += 1;
					else if (!result.firstRed) {
						result.firstRed = { test: testName(test), message: test.result().errors?.[0]?.message ?? state };
					}
				}
			}
			return result;
		});
		console.log(`\n${formatProgress(results, { goFolder: existsSync(join(this.root, 'go')), paint })}\n`);
		// Red tests are where a learner normally is, not a failure of this command: only a broken run, or code
		// that did not return (lib/watchdog/), exits non-zero.
		process.exitCode = errors.length || reason === 'interrupted' || hangsIn().length ? 1 : 0;
	}
}
