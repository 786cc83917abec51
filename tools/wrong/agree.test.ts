// A mistake named in both languages (solutions/wrong/<m>.patch and go/solutions/wrong/<m>.patch) is one
// mistake: its two headers expect the same words of the failure, so a Go learner and a TypeScript learner
// who make it are told the same story. The words are compared as both languages would say them (same-story.ts:
// finish() and Finish() alike), in any order; that the failures really hold them, the wrong-solution players
// check (play-wrong.ts, go-track.ts).
import { expect, it } from 'vitest';
import { goWrongDir, wrongDir, wrongSolutions, type WrongSolution } from '../../lib/wrong-solutions.ts';
import { normalised } from '../same-story.ts';

// Where the two languages tell another story for a reason outside the headers, and which: each must still be
// needed (a pair listed here that agrees is a slip too).
export const toldApart: Record<string, string> = {};

const wordsOf = (wrong: WrongSolution) => [...new Set(wrong.says.map(normalised))].sort();

export function disagreements(ts: WrongSolution[], go: WrongSolution[], apart = toldApart): string[] {
	const twins = new Map(go.map((wrong) => [wrong.name, wrong]));
	const said: string[] = [];
	for (const mistake of ts) {
		const twin = twins.get(mistake.name);
		if (!twin) continue;
		const [ours, theirs] = [wordsOf(mistake), wordsOf(twin)];
		const onlyTs = ours.filter((words) => !theirs.includes(words));
		const onlyGo = theirs.filter((words) => !ours.includes(words));
		const differ = onlyTs.length > 0 || onlyGo.length > 0;
		if (mistake.exercise !== twin.exercise)
			said.push(`${mistake.name}: exercise ${mistake.exercise} in TypeScript, ${twin.exercise} in Go`);
		if (mistake.name in apart && !differ)
			said.push(
				`${mistake.name}: its headers agree now, so it is no longer told apart (${apart[mistake.name]})`
			);
		if (differ && !(mistake.name in apart))
			said.push(
				`${mistake.name} (${mistake.exercise}): the headers expect other words. Only TypeScript's (${mistake.test}): ${JSON.stringify(onlyTs)}; only Go's (${twin.test}): ${JSON.stringify(onlyGo)}`
			);
	}
	return said;
}

it('a mistake named in both languages expects the same words of its failure in both', () => {
	const [ts, go] = [wrongSolutions(wrongDir), wrongSolutions(goWrongDir)];
	expect(ts.filter((mistake) => go.some((twin) => twin.name === mistake.name)).length).toBeGreaterThan(0);
	expect(disagreements(ts, go)).toEqual([]);
});

it('tells a disagreement by the mistake, both tests and the words only one header has', () => {
	const [ts] = wrongSolutions(wrongDir);
	const twin = { ...ts!, test: 'TestIt', says: [...ts!.says.slice(1), 'other words'] };
	const [said] = disagreements([ts!], [twin]);
	expect(said).toContain(`${ts!.name} (${ts!.exercise}): the headers expect other words`);
	expect(said).toContain(JSON.stringify([normalised(ts!.says[0]!)]));
	expect(said).toContain('TestIt): ["other words"]');
	expect(disagreements([ts!], [{ ...twin, says: ts!.says.map((words) => ` ${words}`) }])).toEqual([]);
	expect(disagreements([ts!], [twin], { [ts!.name]: 'a reason' })).toEqual([]);
	expect(disagreements([ts!], [ts!], { [ts!.name]: 'a reason' })[0]).toContain('no longer told apart');
});
