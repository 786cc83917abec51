// The answers handed on (exercises/manifest.json's `given`): the reference solutions and the stubs import
// none before it is given, and an import of one is found however it is reached.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { borrowedAnswers, handedOn } from './given.ts';
import { exercises, workbookRoot, type Exercise } from './manifest.ts';

const fromTree =
	(tree: string, planted: Record<string, string> = {}) =>
	(path: string) => {
		if (path in planted) return planted[path]!;
		const file = join(workbookRoot, path.startsWith('exercises/') ? path.replace(/^exercises/, tree) : path);
		return existsSync(file) ? readFileSync(file, 'utf8') : null;
	};
const exercise = (id: string) => exercises().find((e) => e.id === id) as Exercise;

describe('answers handed on', () => {
	it('names files that exist, each given after the exercise it answers', () => {
		for (const answer of handedOn()) {
			expect(existsSync(join(workbookRoot, answer.file)), answer.file).toBe(true);
			if (answer.go) expect(existsSync(join(workbookRoot, answer.go)), answer.go).toBe(true);
			expect(answer.from > answer.answers, `${answer.file}: from ${answer.from}`).toBe(true);
		}
	});

	for (const tree of ['solutions', 'exercises'])
		it(`finds none imported too early in ${tree}/`, () => {
			for (const e of exercises()) expect(borrowedAnswers(e, fromTree(tree)), e.folder).toEqual([]);
		});

	const handler = 'exercises/02-same-event/handler.ts';
	const reaching: [string, string, string][] = [
		['directly', `import { replay } from '#harness/core/replay.ts';\n`, 'harness/core/replay.ts'],
		[
			'by a relative path',
			`export { replay } from '../../harness/core/replay.js';\n`,
			'harness/core/replay.ts'
		],
		['by import()', `const r = await import("#harness/core/replay.ts");\n`, 'harness/core/replay.ts'],
		[
			'through a harness module',
			`import { modelAnswer } from '#harness/endpoint/model.ts';\n`,
			'harness/core/replay.ts, through harness/endpoint/model.ts'
		]
	];
	for (const [how, source, where] of reaching)
		it(`finds 02's replay imported in 02 ${how}`, () => {
			const found = borrowedAnswers(exercise('02'), fromTree('solutions', { [handler]: source }));
			expect(found.map((b) => b.said)).toEqual([
				`${handler} imports exercise 02's answer, handed on from 03: write your own (${where})`
			]);
		});

	it("finds 03's handleAtomically re-exported in 03, and lets 03 use 02's replay", () => {
		const atomic = 'exercises/03-the-race/atomic.ts';
		const borrowed = `export { handleAtomically } from '#harness/race/atomic.ts';\n`;
		const [found, more] = borrowedAnswers(exercise('03'), fromTree('solutions', { [atomic]: borrowed }));
		expect(found?.said).toBe(
			`${atomic} imports exercise 03's answer, handed on from 05: write your own (harness/race/atomic.ts)`
		);
		expect(more).toBeUndefined();
		const own = `import { replay } from '#harness/core/replay.ts';\nexport const handleAtomically = replay;\n`;
		expect(borrowedAnswers(exercise('03'), fromTree('solutions', { [atomic]: own }))).toEqual([]);
	});

	it('does not take a comment for an import', () => {
		const source = `// not: import { replay } from '#harness/core/replay.ts';\nexport const x = 1;\n`;
		expect(borrowedAnswers(exercise('02'), fromTree('solutions', { [handler]: source }))).toEqual([]);
	});
});
