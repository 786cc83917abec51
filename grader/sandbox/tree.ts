// The private folder of one exercise run, made fresh by the grader: the exercise's given files with the
// learner's on top, compiled to JavaScript, and job.json, the inputs the observers are handed.
//
//   const view = await makeView(harness, exercise, files, job, { sandboxed: true });
//   view.error   // "exercises/01-first-handler/handler.ts does not compile: …", or null
//   removeView(view.dir);
import { chmodSync, mkdirSync, readdirSync, rmSync, statfsSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';
import type { BatchJob, Job } from '../channel/job.ts';
import { compileFile, type Harness } from './compile.ts';
import { privateStampedFolder } from './leftovers.ts';

// Where views are made: in memory (the machine's shared-memory tmpfs, /dev/shm) when there is one, else the temp
// folder. A view is the grader's own writing alone, the compiled files and job.json, a few hundred KB; no run can
// write it (the sandbox binds it read-only), so it holds no run's bytes outside the run's limits. Made and removed
// on a disk it cost more of the grader's CPU than any other step of a small run: on an ext4 disk (journal,
// discard), some 25 ms of kernel time a view of 30 files, against 2 ms in memory.
const inMemory = '/dev/shm';
const tmpfsMagic = 0x01021994;
function memoryFolder(): string | null {
	try {
		if (statfsSync(inMemory).type !== tmpfsMagic) return null;
		rmSync(privateStampedFolder(inMemory, 'grade-probe-'), { recursive: true });
		return inMemory;
	} catch {
		return null;
	}
}
let parent: string | undefined;
export const viewParent = () => (parent ??= memoryFolder() ?? tmpdir());

// A fresh private folder for one run's view, named with `prefix` and stamped with this grader (leftovers.ts).
export const newViewFolder = (prefix: string) => privateStampedFolder(viewParent(), prefix);

// The view of one run: exercises/<folder>/ (the given files and the learner's, compiled) and job.json. In the
// sandbox the compiled harness is bound at /wb and these two over it; without one, links stand in for it.
export async function makeView(
	harness: Harness,
	exercise: Exercise,
	files: Map<string, string>,
	job: Job,
	options: { sandboxed: boolean }
): Promise<{ dir: string; error: string | null }> {
	const { dir, errors } = await makeBatchView(harness, [{ exercise, files }], job, options);
	return { dir, error: errors.get(exercise.folder) ?? null };
}

// The view of a batch (grader/trusted/run-batch.ts): each exercise's folder as makeView writes it, and one
// job.json (null: written later, by writeJob, once the batch knows which of them compile); errors, by folder,
// for the exercises whose files do not compile.
export async function makeBatchView(
	harness: Harness,
	exercises: { exercise: Exercise; files: Map<string, string> }[],
	job: Job | BatchJob | null,
	options: { sandboxed: boolean }
): Promise<{ dir: string; errors: Map<string, string> }> {
	const dir = newViewFolder('grade-view-');
	const errors = new Map<string, string>();
	mkdirSync(join(dir, 'exercises'));
	chmodSync(join(dir, 'exercises'), 0o755);
	for (const { exercise, files } of exercises) {
		const error = await writeExercise(harness, dir, exercise, files);
		if (error) errors.set(exercise.folder, error);
	}
	if (job) writeJob(dir, job);
	if (!options.sandboxed) {
		for (const inside of [
			'package.json',
			'vitest.js',
			'harness',
			'exercises/manifest.json',
			'inside',
			'channel',
			'node_modules',
			'schedules'
		])
			symlinkSync(join(harness.dir, inside), join(dir, inside));
	}
	// The sandbox's user is not the grader's: it may read the view, never write it.
	chmodSync(dir, 0o755);
	return { dir, errors };
}

export function writeJob(dir: string, job: Job | BatchJob): void {
	writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
	chmodSync(join(dir, 'job.json'), 0o644);
}

// One exercise's folder in a view: its given files, and the learner's compiled; the first that does not compile.
async function writeExercise(
	harness: Harness,
	dir: string,
	exercise: Exercise,
	files: Map<string, string>
): Promise<string | null> {
	const folder = join(dir, 'exercises', exercise.folder);
	mkdirSync(folder, { recursive: true });
	for (const [name, js] of harness.given.get(exercise.folder) ?? []) writeFileSync(join(folder, name), js);
	let error: string | null = null;
	for (const [path, content] of files) {
		const compiled = await compileFile(content, `exercises/${path}`);
		if ('error' in compiled) error ??= `exercises/${path} does not compile: ${compiled.error}`;
		else writeFileSync(join(dir, 'exercises', path.replace(/\.ts$/, '.js')), compiled.js);
	}
	chmodSync(folder, 0o755);
	for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o644);
	return error;
}

export function removeView(dir: string): void {
	rmSync(dir, { recursive: true, force: true });
}
