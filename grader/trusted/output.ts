// The grader's output, written only by the grader: each file whole or not at all (a temporary file, then a
// rename), so a reader never sees half a file, and a run stopped midway leaves every finished learner's results.
//
//   writeLearner('grades', 'alice', results);   // grades/alice/results.json
import { lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let written = 0;

export function writeAtomically(file: string, content: string): void {
	mkdirSync(dirname(file), { recursive: true });
	const temporary = join(dirname(file), `.writing-${process.pid}-${++written}`);
	writeFileSync(temporary, content, { flag: 'wx' });
	renameSync(temporary, file);
}

// `name` comes from names.ts (no "/", no ".", not an output name); the folder must be a real folder.
export function writeLearner(out: string, name: string, results: unknown): void {
	const folder = join(out, name);
	mkdirSync(folder, { recursive: true });
	if (!lstatSync(folder).isDirectory()) throw new Error(`${folder} is not a folder; results not written`);
	writeAtomically(join(folder, 'results.json'), JSON.stringify(results, null, '\t'));
}
