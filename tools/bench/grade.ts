// npm run bench:grade -- [copies] [jobs]: grades N copies of the complete submission, each run for real (no
// sharing of identical runs), in the sandbox; then a few copies without it, to tell what the sandbox costs per
// exercise run. Prints seconds per submission, submissions per minute, and the machine's load while it ran;
// where the kernel counts CPU by cgroup (v1 cpuacct), the CPU a submission takes, everything it starts
// included (the steadier figure on a loaded machine), and per exercise who spends it: the grader, its other
// processes (strace, bwrap, node with the learner's code, cp) and PostgreSQL; and what a run's cluster costs,
// made and removed (an overlay on the base, or a copy of it: tools/bench/cluster.ts pairs the two).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises } from '#harness/core/manifest.ts';
import { planExercises } from '../../grader/trusted/expect.ts';
import { GradingPostgres } from '../../grader/sandbox/postgres.ts';
import { gradeClass, settingsOf, type ClassGrade } from '../../grader/trusted/grade.ts';
import { maxObservations, runExercise } from '../../grader/trusted/run-exercise.ts';
import { findSandbox } from '../../grader/sandbox/sandbox.ts';
import { straceArgs } from '../../grader/sandbox/trace.ts';
import { materializeSamples, samples } from '../../grader/samples/samples.ts';
import { exerciseFiles, readSubmission } from '../../grader/trusted/submission.ts';
import { compileFile } from '../../grader/sandbox/compile.ts';
import { cpuAccount, spent, type CpuSeconds } from './cpu-account.ts';
import { batchAgainstAlone } from './batch.ts';

const copies = Number(process.argv[2] ?? 12);
const jobs = Number(process.argv[3] ?? availableParallelism());
const dir = mkdtempSync(join(tmpdir(), 'bench-grade-'));
const load = () =>
	loadavg()
		.map((n) => n.toFixed(1))
		.join(' ');

function copiesOf(complete: string, n: number, label: string): string[] {
	return Array.from({ length: n }, (_, i) => {
		const copy = join(dir, label, `learner-${i + 1}`);
		cpSync(complete, copy, { recursive: true });
		return copy;
	});
}

// CPU seconds this process and its waited-for children (every sandbox) have used so far: /proc/self/stat.
function cpuSeconds(): number {
	const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
	// utime, stime, cutime, cstime are fields 14 to 17; after the command's ")" they start at index 11.
	return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

const account = cpuAccount();
const cpuNow = (): CpuSeconds => account?.read() ?? { all: 0, postgres: 0, grader: 0 };
const said = (cpu: CpuSeconds) =>
	`${cpu.all.toFixed(2)} s (the grader ${cpu.grader.toFixed(2)}, its other processes (strace, bwrap, node, cp) ${(cpu.all - cpu.grader - cpu.postgres).toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)})`;

const perRun = (grade: ClassGrade) => {
	const seconds = grade.graded.flatMap((g) => g.seconds);
	return seconds.reduce((a, b) => a + b, 0) / grade.runs;
};

try {
	const complete = materializeSamples(join(dir, 'samples'))[samples.findIndex((s) => s.name === 'complete')]!;
	const options = { seed: 1, jobs, share: false, heldOutChecks: 4, heldOutRuns: 25 };
	console.log(`load average before: ${load()} (1, 5, 15 minutes), ${availableParallelism()} cores`);
	let started = Date.now();
	const databases = new GradingPostgres();
	const planned = await planExercises(exercises(), settingsOf(options), undefined, databases).finally(() =>
		databases.stop()
	);
	const planning = (Date.now() - started) / 1000;
	started = Date.now();
	const classCpu = cpuNow();
	const sealed = await gradeClass(copiesOf(complete, copies, 'sealed'), { ...options, planned });
	const seconds = (Date.now() - started) / 1000;
	const sealedCpu = spent(cpuNow(), classCpu, copies);
	const loadDuring = load();
	const few = Math.max(2, Math.round(copies / 3));
	// A sandbox's CPU is not counted to its parent (its PID namespace reaps it), so CPU is read on open runs.
	const cpuBefore = cpuSeconds();
	const open = await gradeClass(copiesOf(complete, few, 'open'), { ...options, planned, unsafe: true });
	const cpu = (cpuSeconds() - cpuBefore) / few;
	const full = [...sealed.graded, ...open.graded].every((graded) => graded.score === graded.max);
	const perSubmission = (seconds + planning) / copies;
	console.log(
		`expectations from the reference (once per class): ${planning.toFixed(1)} s, ${exercises().length} exercises`
	);
	console.log(
		`${copies} copies of the complete submission, ${sealed.runs} exercise runs (${sealed.batches ?? 0} of them batches of the exercises without a database), ${jobs} at a time: ${seconds.toFixed(1)} s`
	);
	console.log(
		`${perSubmission.toFixed(2)} s per submission (planning included), ${(60 / perSubmission).toFixed(1)} submissions per minute`
	);
	const sandboxed = perRun(sealed);
	const bare = perRun(open);
	console.log(
		`one exercise run: ${sandboxed.toFixed(2)} s in the sandbox, ${bare.toFixed(2)} s without (${few} copies): the sandbox costs ${((sandboxed - bare) * 1000).toFixed(0)} ms a run`
	);
	console.log(`load average after the sandboxed runs: ${loadDuring}`);
	if (account)
		console.log(
			`CPU a submission, sealed and traced, everything it starts counted: ${said(sealedCpu)}: ${availableParallelism()} idle cores would grade about ${((60 * availableParallelism()) / sealedCpu.all).toFixed(0)} a minute`
		);
	else console.log('CPU a submission, sealed: not measured (no cgroup v1 cpuacct controller here)');
	console.log(
		`CPU a submission, without the sandbox: ${cpu.toFixed(2)} s (plus the sandbox's cost above for 5 runs): ${availableParallelism()} idle cores would grade about ${((60 * availableParallelism()) / cpu).toFixed(0)} a minute`
	);
	// The sandbox's cost alone: the same run with and without it, one after the other, so the load is alike.
	const plan = planned.find((p) => p.exercise.id === '04') ?? planned[0]!;
	const files = exerciseFiles(plan.exercise, readSubmission(complete, exercises()).files);
	const limits = { timeoutMs: 60_000, memoryMb: 1024, maxOutput: 65_536, maxObservations };
	const [sealedBox, openBox] = [findSandbox({ unsafe: false }), findSandbox({ unsafe: true })];
	const differences: number[] = [];
	for (let i = 0; i < 10; i++) {
		const a = await runExercise(sealedBox, plan.exercise, files, plan.checks!, limits);
		const b = await runExercise(openBox, plan.exercise, files, plan.checks!, limits);
		differences.push(a.seconds - b.seconds);
	}
	differences.sort((x, y) => x - y);
	const median = (differences[4]! + differences[5]!) / 2;
	console.log(
		`the sandbox alone, ${plan.exercise.id} run 10 times each way, alternating: median ${(median * 1000).toFixed(0)} ms a run (from ${(differences[0]! * 1000).toFixed(0)} to ${(differences[9]! * 1000).toFixed(0)} ms)`
	);
	// The exercises without a database, in one batch and each alone, alternating (tools/bench/batch.ts).
	if (account) console.log(await batchAgainstAlone(sealedBox, planned, complete, 4, cpuNow, said));
	// The tracer's cost alone (strace outside the sandbox, grader/sandbox/attempts.ts): every exercise, sealed each time,
	// traced and untraced one after the other, so the load is alike; 06 on its PostgreSQL.
	const untracedBox = findSandbox({ unsafe: false, untraced: true });
	const tracerDatabases = new GradingPostgres();
	try {
		// A run's cluster alone: made (a copy of the base and a start, ahead of its run) and removed, 4 times.
		const firstCluster = await tracerDatabases.runDatabase();
		await firstCluster.drop();
		const [clusterCpu, clusterStarted] = [cpuNow(), Date.now()];
		for (let i = 0; i < 4; i++) await (await tracerDatabases.runDatabase()).drop();
		const clusterSpent = spent(cpuNow(), clusterCpu, 4);
		const way = firstCluster.way === 'overlay' ? 'an overlay on the base' : 'a copy of the base';
		console.log(
			`a run's cluster (${way}), made and removed, one after the other: ${((Date.now() - clusterStarted) / 4000).toFixed(2)} s${account ? `, CPU ${said(clusterSpent)}` : ''}`
		);
		// Compiling the learner's files (esbuild, outside the sandbox), every file of the submission 10 times.
		const sources = [...readSubmission(complete, exercises()).files];
		const compileStarted = process.hrtime.bigint();
		for (let i = 0; i < 10; i++)
			for (const [path, source] of sources) await compileFile(source, `exercises/${path}`);
		const compileMs = Number(process.hrtime.bigint() - compileStarted) / 1e6 / 10;
		console.log(`compiling a submission's ${sources.length} learner files: ${compileMs.toFixed(1)} ms`);
		for (const one of planned.filter((p) => p.checks)) {
			const oneFiles = exerciseFiles(one.exercise, readSubmission(complete, exercises()).files);
			const database = one.postgres ? tracerDatabases : null;
			const deltas: number[] = [];
			let calls = 0;
			const cpu = { traced: cpuNow(), untraced: cpuNow() };
			let tracedCpu: CpuSeconds = { all: 0, postgres: 0, grader: 0 };
			let untracedCpu = tracedCpu;
			let tracedWall = 0;
			const add = (sum: CpuSeconds, more: CpuSeconds) => ({
				all: sum.all + more.all / 6,
				postgres: sum.postgres + more.postgres / 6,
				grader: sum.grader + more.grader / 6
			});
			for (let i = 0; i < 6; i++) {
				cpu.traced = cpuNow();
				const begun = Date.now();
				const a = await runExercise(sealedBox, one.exercise, oneFiles, one.checks!, limits, database);
				tracedWall += (Date.now() - begun) / 6000;
				cpu.untraced = cpuNow();
				tracedCpu = add(tracedCpu, spent(cpu.untraced, cpu.traced));
				const b = await runExercise(untracedBox, one.exercise, oneFiles, one.checks!, limits, database);
				untracedCpu = add(untracedCpu, spent(cpuNow(), cpu.untraced));
				deltas.push(a.seconds - b.seconds);
				calls = a.tracedCalls ?? 0;
				if (i === 0 && !a.verdicts.every((v) => v.status === 'passed'))
					console.log(
						`✘ ${one.exercise.id} traced did not pass: ${a.verdicts.find((v) => v.status !== 'passed')?.message}`
					);
			}
			deltas.sort((x, y) => x - y);
			const ms = (n: number) => `${(n * 1000).toFixed(0)} ms`;
			console.log(
				`the tracer alone, ${one.exercise.id} run 6 times each way, alternating: median ${ms((deltas[2]! + deltas[3]!) / 2)} a run (from ${ms(deltas[0]!)} to ${ms(deltas[5]!)}), ${calls} calls traced a run`
			);
			if (account)
				console.log(
					`  ${one.exercise.id} sealed and traced: ${tracedWall.toFixed(2)} s a run (the view, the cluster's teardown and the verdicts included), CPU ${said(tracedCpu)}; untraced, CPU ${untracedCpu.all.toFixed(2)} s`
				);
		}
	} finally {
		await tracerDatabases.stop();
	}
	// What one traced call costs: 20,000 stats in a bare node, traced the grader's way and not, alternating.
	const loop = `const fs = require('node:fs'); for (let i = 0; i < 20000; i++) try { fs.statSync('/none-' + (i % 9)); } catch {}`;
	const timed = (command: string[]) => {
		const begun = process.hrtime.bigint();
		spawnSync(command[0]!, command.slice(1), { stdio: 'ignore' });
		return Number(process.hrtime.bigint() - begun) / 1e9;
	};
	const perCall: number[] = [];
	for (let i = 0; i < 5; i++) {
		const traced = timed([sealedBox.strace!, ...straceArgs('/dev/null'), process.execPath, '-e', loop]);
		perCall.push((traced - timed([process.execPath, '-e', loop])) / 20_000);
	}
	perCall.sort((x, y) => x - y);
	console.log(
		`one traced call: median ${(perCall[2]! * 1e6).toFixed(0)} µs (20,000 stats with and without strace, 5 times each)`
	);
	if (!full) console.log('✘ a copy of the complete submission did not get full marks');
	process.exitCode = full ? 0 : 1;
} finally {
	account?.close();
	rmSync(dir, { recursive: true, force: true });
}
