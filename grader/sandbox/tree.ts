// The private folder of one exercise run, made fresh by the grader: the exercise's given files with the
// learner's on top, compiled to JavaScript, and job.json, the inputs the observers are handed.
//
//   const view = await makeView(harness, exercise, files, job, { sandboxed: true });
//   view.error   // "exercises/01-first-handler/handler.ts does not compile: …", or null
//   removeView(view.dir);
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exercise } from '#harness/core/manifest.ts';
import type { Job } from '../channel/job.ts';
import { compileFile, type Harness } from './compile.ts';

// The view of one run: exercises/<folder>/ (the given files and the learner's, compiled) and job.json. In the
// sandbox the compiled harness is bound at /wb and these two over it; without one, links stand in for it.
export async function makeView(
	harness: Harness,
	exercise: Exercise,
	files: Map<string, string>,
	job: Job,
	options: { sandboxed: boolean }
): Promise<{ dir: string; error: string | null }> {
	const dir = mkdtempSync(join(tmpdir(), 'grade-view-'));
	const folder = join(dir, 'exercises', exercise.folder);
	mkdirSync(folder, { recursive: true });
	for (const [name, js] of harness.given.get(exercise.folder) ?? []) writeFileSync(join(folder, name), js);
	let error: string | null = null;
	for (const [path, content] of files) {
		const compiled = await compileFile(content, `exercises/${path}`);
		if ('error' in compiled) error ??= `exercises/${path} does not compile: ${compiled.error}`;
		else writeFileSync(join(dir, 'exercises', path.replace(/\.ts$/, '.js')), compiled.js);
	}
	writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
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
	for (const path of [dir, join(dir, 'exercises'), folder]) chmodSync(path, 0o755);
	for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o644);
	chmodSync(join(dir, 'job.json'), 0o644);
	return { dir, error };
}

export function removeView(dir: string): void {
	rmSync(dir, { recursive: true, force: true });
}
