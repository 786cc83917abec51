import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises } from '#shared/manifest.ts';
import { root } from './paths.ts';
import { runExercise, type RunSettings } from './run-exercise.ts';
import { makeTree, removeTree, treeFiles } from './tree.ts';

const first = exercises()[0]!;
const hardCoded = readFileSync(
	join(root, 'grader/samples/hard-coded/exercises/01-first-handler/handler.ts'),
	'utf8'
);

describe('runExercise', () => {
	it('gives the same result for the same seed: a grade can be replayed', async () => {
		const tree = makeTree(
			'replay',
			treeFiles(exercises(), new Map([['01-first-handler/handler.ts', hardCoded]]))
		);
		const settings: RunSettings = {
			seed: 42,
			timeoutMs: 20_000,
			heldOutChecks: 2,
			heldOutRuns: 20,
			maxOutput: 10_000
		};
		try {
			const [a, b] = await Promise.all([
				runExercise(tree.dir, first, settings),
				runExercise(tree.dir, first, settings)
			]);
			expect([...a.tests]).toEqual([...b.tests]);
			const heldOut = [...a.tests].filter(([key]) => key.startsWith('grader/held-out/'));
			expect(heldOut.length).toBe(2);
			expect(
				heldOut.every(([, ran]) => ran.status === 'failed' && /\(held-out, seed 4[23]\)/.test(ran.message))
			).toBe(true);
		} finally {
			removeTree(tree);
		}
	}, 60_000);
});
