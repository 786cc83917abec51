// Answers handed on: harness files that hold one exercise's answer, given to the exercises after it
// (replay.ts is 02's replay, given from 03 on). exercises/manifest.json's `given` list is the one home of
// that fact; this file reads it and finds a learner's file that imports an answer before it is given.
//
//   const borrowed = borrowedAnswers(exercise, (path) => readSource(path));   // [] when the work is their own
//   borrowed[0]?.said   // "exercises/02-same-event/handler.ts imports exercise 02's answer, handed on from
//                       //  03: write your own (harness/core/replay.ts)"
//
// The imports are followed as far as they go (the import closure): from the exercise's learner files through
// other learner files, the exercise's given files and the harness, so a harness module that imports a later
// answer carries it in. Exercise N may import an answer to an earlier exercise (03 uses 02's replay), never
// one to N or after. Paths are the workbook's, each module named by its .ts file; `read` hands back a
// module's text (TypeScript source, or the grader's compiled JavaScript), or null where there is none.
// Only literal specifiers are seen (import, export … from, import(), require()): a name built at run time
// is not.
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { manifestPath, type Exercise } from './manifest.ts';

export type HandedOn = { file: string; answers: string; from: string; go?: string };
export type Borrowed = { file: string; answer: HandedOn; through: string[]; said: string };

export function handedOn(path = manifestPath): HandedOn[] {
	return (JSON.parse(readFileSync(path, 'utf8')) as { given?: HandedOn[] }).given ?? [];
}

// What exercise N may not import: the answers to N and to every exercise after it.
export const notYetGiven = (exercise: Exercise, given = handedOn()) =>
	given.filter((answer) => answer.answers >= exercise.id);

const specifier = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(['"`])([^'"`\n]+)\1/g;
const comment = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

// The workbook path a specifier names from `from`, or null for a package (vitest, node:fs).
export function resolved(spec: string, from: string): string | null {
	const path = spec.replace(/^file:\/\//, '');
	let target: string;
	if (path.startsWith('#harness/')) target = `harness/${path.slice('#harness/'.length)}`;
	else if (path.startsWith('.')) target = posix.join(posix.dirname(from), path);
	else if (path.startsWith('/')) target = path.replace(/^\/(wb\/)?/, '');
	else return null;
	return posix.normalize(target).replace(/\.js$/, '.ts');
}

export function borrowedAnswers(
	exercise: Exercise,
	read: (path: string) => string | null,
	options: { given?: HandedOn[]; keepComments?: boolean } = {}
): Borrowed[] {
	const barred = notYetGiven(exercise, options.given);
	const found: Borrowed[] = [];
	if (!barred.length) return found;
	for (const name of exercise.learnerFiles) {
		const file = `exercises/${exercise.folder}/${name}`;
		const path = pathTo(file, (p) => barred.some((answer) => answer.file === p), read, options.keepComments);
		const answer = path && barred.find((a) => a.file === path.at(-1));
		if (!path || !answer) continue;
		const through = path.slice(1, -1);
		const via = through.length ? `, through ${through.join(' → ')}` : '';
		const said = `${file} imports exercise ${answer.answers}'s answer, handed on from ${answer.from}: write your own (${answer.file}${via})`;
		found.push({ file, answer, through, said });
	}
	return found;
}

// The first chain of imports from `start` to a module `wanted` holds, found breadth first (so the shortest).
function pathTo(
	start: string,
	wanted: (path: string) => boolean,
	read: (path: string) => string | null,
	keepComments = false
): string[] | null {
	const cameFrom = new Map<string, string | null>([[start, null]]);
	const queue = [start];
	while (queue.length) {
		const path = queue.shift()!;
		if (wanted(path)) {
			const chain = [path];
			for (let at = cameFrom.get(path); at; at = cameFrom.get(at)) chain.unshift(at);
			return chain;
		}
		const text = read(path);
		if (text === null) continue;
		const code = keepComments ? text : text.replace(comment, '');
		for (const [, , spec] of code.matchAll(specifier)) {
			const target = resolved(spec!, path);
			if (target && !cameFrom.has(target)) {
				cameFrom.set(target, path);
				queue.push(target);
			}
		}
	}
	return null;
}
