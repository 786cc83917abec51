// The sample submissions the grader's tests pin, built from the workbook so they stay right as exercises land.
// Each is a base (the solutions, the shipped stubs, or nothing) with the files under grader/samples/<name>/ on top.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exercises } from '#shared/manifest.ts';
import { root } from './paths.ts';

export type Sample = {
	name: string;
	story: string;
	base: 'solutions' | 'stubs' | 'nothing';
	// With base "stubs": the exercises (by id) whose solution the sample has.
	solved?: string[];
};

export const samples: Sample[] = [
	{ name: 'complete', story: 'every exercise solved (the solutions)', base: 'solutions' },
	{ name: 'untouched', story: 'the workbook as shipped', base: 'stubs' },
	{ name: 'partial', story: 'exercise 01 solved, the rest as shipped', base: 'stubs', solved: ['01'] },
	{ name: 'infinite-loop', story: "solved, but exercise 02's handler never returns", base: 'solutions' },
	{
		name: 'exit-at-import',
		story: 'solved, but exercise 01 calls process.exit(0) when imported',
		base: 'solutions'
	},
	{
		name: 'edited-tests',
		story: "as shipped, with exercise 01's tests, package.json and config edited",
		base: 'stubs'
	},
	{ name: 'hard-coded', story: "handlers that look up the shipped schedules' answers", base: 'stubs' },
	{ name: 'empty', story: 'an empty folder', base: 'nothing' }
];

export const samplesDir = join(root, 'grader', 'samples');

// Writes each sample as a learner's copy of the workbook under `dir`; returns their paths, in order.
export function materializeSamples(dir: string): string[] {
	return samples.map((sample) => {
		const path = join(dir, sample.name);
		rmSync(path, { recursive: true, force: true });
		mkdirSync(path, { recursive: true });
		if (sample.base === 'nothing') return path;
		for (const exercise of exercises()) {
			const solved = sample.base === 'solutions' || sample.solved?.includes(exercise.id);
			for (const file of exercise.learnerFiles) {
				const from = join(root, solved ? 'solutions' : 'exercises', exercise.folder, file);
				const to = join(path, 'exercises', exercise.folder, file);
				mkdirSync(dirname(to), { recursive: true });
				writeFileSync(to, readFileSync(from));
			}
		}
		const overlay = join(samplesDir, sample.name);
		if (existsSync(overlay)) cpSync(overlay, path, { recursive: true });
		return path;
	});
}

// npm run grade:samples -- [grade options]: builds the samples under grades/samples/ and grades them.
if (import.meta.url === `file://${process.argv[1]}`) {
	const paths = materializeSamples(join(root, 'grades', 'samples'));
	const cli = join(root, 'grader', 'cli.ts');
	const ran = spawnSync(
		join(root, 'node_modules', '.bin', 'tsx'),
		[cli, ...process.argv.slice(2), ...paths],
		{
			stdio: 'inherit'
		}
	);
	process.exitCode = ran.status ?? 1;
}
