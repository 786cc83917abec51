// npx tsx tools/bench/batch.ts [times]: the complete submission's exercises without a database, in one batch
// (grader/trusted/run-batch.ts) and each in a run of its own, one way then the other, `times` times, sealed and
// traced; prints the CPU of each way (a cgroup v1 cpuacct group counts everything they start) and their ratio.
// npm run bench:grade prints the same line, for 4 times.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises } from '#harness/core/manifest.ts';
import { planExercises, type Planned } from '../../grader/trusted/expect.ts';
import { settingsOf } from '../../grader/trusted/grade.ts';
import { runBatch } from '../../grader/trusted/run-batch.ts';
import { maxObservations, runExercise } from '../../grader/trusted/run-exercise.ts';
import { findSandbox, type Sandbox } from '../../grader/sandbox/sandbox.ts';
import { removeCompiledHarness } from '../../grader/sandbox/compile.ts';
import { materializeSamples, samples } from '../../grader/samples/samples.ts';
import { exerciseFiles, readSubmission } from '../../grader/trusted/submission.ts';
import { cpuAccount, spent, type CpuSeconds } from './cpu-account.ts';
import { isMain } from '../../lib/main-module.ts';

const none = (): CpuSeconds => ({ all: 0, postgres: 0, grader: 0 });
const add = (a: CpuSeconds, b: CpuSeconds): CpuSeconds => ({
	all: a.all + b.all,
	postgres: a.postgres + b.postgres,
	grader: a.grader + b.grader
});

export async function batchAgainstAlone(
	sandbox: Sandbox,
	planned: Planned[],
	complete: string,
	times: number,
	cpuNow: () => CpuSeconds,
	said: (cpu: CpuSeconds) => string
): Promise<string> {
	const limits = { timeoutMs: 60_000, memoryMb: 1024, maxOutput: 65_536, maxObservations };
	const submission = readSubmission(complete, exercises());
	const small = planned
		.filter((plan) => plan.checks && !plan.postgres)
		.map((plan) => ({
			exercise: plan.exercise,
			files: exerciseFiles(plan.exercise, submission.files),
			checks: plan.checks!
		}));
	const ways = { batch: none(), alone: none() };
	let full = true;
	for (let i = 0; i < times; i++) {
		const before = cpuNow();
		const batch = await runBatch(sandbox, small, limits);
		full &&= small.every((one) =>
			batch.get(one.exercise.folder)?.verdicts.every((v) => v.status === 'passed')
		);
		const between = cpuNow();
		for (const one of small) await runExercise(sandbox, one.exercise, one.files, one.checks, limits);
		ways.batch = add(ways.batch, spent(between, before, times));
		ways.alone = add(ways.alone, spent(cpuNow(), between, times));
	}
	const ids = small.map((one) => one.exercise.id).join(', ');
	return `${ids} of one submission, ${times} times each way, alternating: in one batch, CPU ${said(ways.batch)}; each alone, CPU ${said(ways.alone)}: ×${(ways.batch.all / ways.alone.all).toFixed(2)}${full ? '' : ' (✘ the batch did not keep every exercise, passed)'}`;
}

if (isMain(import.meta.url)) {
	const account = cpuAccount();
	if (!account) throw new Error('no cgroup v1 cpuacct controller here: CPU cannot be counted');
	const dir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
	try {
		const complete = materializeSamples(dir, [samples.find((sample) => sample.name === 'complete')!])[0]!;
		const small = exercises().filter((exercise) => exercise.postgres !== 'only');
		const planned = await planExercises(small, settingsOf({ seed: 1, heldOutChecks: 4, heldOutRuns: 25 }));
		const said = (cpu: CpuSeconds) => `${cpu.all.toFixed(2)} s (the grader ${cpu.grader.toFixed(2)})`;
		const times = Number(process.argv[2] ?? 6);
		console.log(
			await batchAgainstAlone(
				findSandbox({ unsafe: false }),
				planned,
				complete,
				times,
				() => account.read(),
				said
			)
		);
	} finally {
		account.close();
		await removeCompiledHarness();
		rmSync(dir, { recursive: true, force: true });
	}
}
