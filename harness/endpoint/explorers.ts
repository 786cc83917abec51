// The explorers behind 06's explorations (explorations.ts): the first broken promise at a crash point or an
// overlap, over the schedules' sequences and random ones. Loaded when an exploration first runs, after the stub
// check: a run of 06 whose routes are still stubs never loads them, nor fast-check.
//
//   await crashProblem(code, { crashSequences: 4, modelRuns: 25, seed: 606 });   // null, or the story
//   await overlapProblem(code);
import fc from 'fast-check';
import { exploreCrashPoints } from './crash-points.ts';
import { MemoryStore } from './memory-store.ts';
import { exploreOverlaps, overlaps } from './overlaps.ts';
import type { EndpointCode } from './play.ts';
import type { Sizes } from './explorations.ts';
import { randomSequences, scheduleSequences } from './sequences.ts';

export { checkEndpointModel } from './properties.ts';

const inMemory = async (store: unknown) => (store as MemoryStore).copy();

// The first broken promise over the schedules' sequences, then the random ones; null when all are kept.
export async function crashProblem(code: EndpointCode, sizes: Sizes): Promise<string | null> {
	for (const { name, sequence } of scheduleSequences()) {
		const problem = await exploreCrashPoints(code, sequence, new MemoryStore(), inMemory);
		if (problem) return `${name}, played with a crash at every step:\n${problem}`;
	}
	const random = fc.sample(randomSequences, { seed: sizes.seed, numRuns: sizes.crashSequences });
	for (const [i, sequence] of random.entries()) {
		const problem = await exploreCrashPoints(code, sequence, new MemoryStore(), inMemory);
		if (problem)
			return `Random sequence ${i + 1} of seed ${sizes.seed} (ENDPOINT_SEED=${sizes.seed}), played with a crash at every step:\n${problem}`;
	}
	return null;
}

export async function overlapProblem(code: EndpointCode): Promise<string | null> {
	for (const overlap of overlaps()) {
		const problem = await exploreOverlaps(code, overlap);
		if (problem) return problem;
	}
	return null;
}
