// npm run bench:grade -- [copies] [jobs]: grades N copies of the complete submission, each run for real
// (no sharing of identical runs), and prints seconds per submission and submissions per minute.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exercises } from '#shared/manifest.ts';
import { gradeClass } from '../../grader/grade.ts';
import { materializeSamples, samples } from '../../grader/samples.ts';

const copies = Number(process.argv[2] ?? 8);
const jobs = Number(process.argv[3] ?? availableParallelism());
const dir = mkdtempSync(join(tmpdir(), 'bench-grade-'));
try {
	const complete = materializeSamples(dir)[samples.findIndex((s) => s.name === 'complete')]!;
	const paths = Array.from({ length: copies }, () => complete);
	const grade = await gradeClass(paths, { seed: 1, jobs, share: false });
	const full = grade.graded.every((graded) => graded.score === graded.max);
	const perSubmission = grade.seconds / copies;
	console.log(
		`${copies} copies of the complete submission, ${exercises().length} exercises, ${jobs} at a time`
	);
	console.log(
		`${grade.runs} exercise runs (the reference and the stubs included) in ${grade.seconds.toFixed(1)} s`
	);
	console.log(
		`${perSubmission.toFixed(2)} s per submission, ${(60 / perSubmission).toFixed(1)} submissions per minute`
	);
	console.log(`a class of 30: about ${((30 * perSubmission) / 60).toFixed(1)} minutes`);
	if (!full) console.log('✘ a copy of the complete submission did not get full marks');
	process.exitCode = full ? 0 : 1;
} finally {
	rmSync(dir, { recursive: true, force: true });
}
