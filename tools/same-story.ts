// The same mistake tells the same story in both languages: for each Go-track exercise with a named mistake
// written in TypeScript and in Go under one name (solutions/wrong/<m>.patch, go/solutions/wrong/<m>.patch),
// the first such mistake is played in both, and the story lines of the two failures must read alike:
//
//   heading      the first line naming what was played: Schedule "…", Journey "…", Case "…", Two workers on …
//   divergence   the first line saying what was expected against what the code did ("expected …")
//
// Compared after the language's own spellings are put aside: Go's file:line prefixes, indentation and runs
// of spaces, and method names (finish() and Finish()).
//
//   sameStoryInBoth()   verify's step: one pass per pair that reads alike, a problem naming both otherwise
//   storyLines(text)    the two lines of one failure message, normalised
import { type Checked } from './go-track.ts';
import { playGoWrongTest } from './go-track.ts';
import { runWrongSolutions } from './wrong/play-wrong.ts';
import { normalised } from './wrong/first-failure.ts';
import { goExercises, heading } from '#harness/core/manifest.ts';
import { goWrongDir, wrongDir, wrongSolutions, type WrongSolution } from '../lib/wrong-solutions.ts';
import { isMain } from '../lib/main-module.ts';

export type Story = { heading: string | null; divergence: string | null };

export { normalised } from './wrong/first-failure.ts';

const headingLine = /^(Schedule|Journey|Case) "|^(Two|Three) workers on /;

export function storyLines(message: string): Story {
	const lines = message.split('\n').map(normalised).filter(Boolean);
	return {
		heading: lines.find((line) => headingLine.test(line)) ?? null,
		divergence: lines.find((line) => /\bexpected\b/.test(line)) ?? null
	};
}

// The pairs: for each exercise of the Go track (goLearnerFiles: the stories a Go learner reads), the first
// mistake (by name) that both languages name and whose failure tells a schedule's or a journey's story, and
// the first whose failure is a focused test's case (Case "…", harness/client/cases.ts and go/client/cases.go).
export function pairs(): { ts: WrongSolution; go: WrongSolution }[] {
	const track = new Set(goExercises().map((exercise) => exercise.id));
	const go = new Map(
		wrongSolutions(goWrongDir)
			.filter((wrong) => track.has(wrong.exercise))
			.map((wrong) => [wrong.name, wrong])
	);
	const chosen = new Map<string, { ts: WrongSolution; go: WrongSolution }>();
	for (const ts of wrongSolutions(wrongDir)) {
		const twin = go.get(ts.name);
		const told = ts.says.find((words) => headingLine.test(words));
		const kind = `${ts.exercise} ${told?.startsWith('Case "') ? 'case' : 'story'}`;
		if (twin && told && !chosen.has(kind)) chosen.set(kind, { ts, go: twin });
	}
	return [...chosen.values()];
}

export async function sameStoryInBoth(): Promise<Checked> {
	const chosen = pairs();
	const ran = await runWrongSolutions(chosen.map((pair) => pair.ts));
	const problems: (string | null)[] = [];
	for (const { ts, go } of chosen) {
		const tsTest = ran.find(
			(t) => t.project === ts.name && t.name === `${heading(ts.exercise)} > ${ts.test}`
		);
		const goTest = (await playGoWrongTest(go)).test;
		if (!tsTest?.failed || goTest?.status !== 'failed') {
			problems.push(
				`${ts.name}: to compare the stories, both must fail: TypeScript ${tsTest?.failed ? 'failed' : 'did not fail'}, Go ${goTest?.status ?? 'ran no such test'}`
			);
			continue;
		}
		const [tsStory, goStory] = [storyLines(tsTest.message), storyLines(goTest.output)];
		const differ = (['heading', 'divergence'] as const).filter((part) => tsStory[part] !== goStory[part]);
		problems.push(
			differ.length === 0
				? null
				: `${ts.name} (${ts.exercise}: ${ts.mistake}) reads differently in Go:\n${differ
						.map((part) => `  ${part}\n    TypeScript: ${tsStory[part]}\n    Go:         ${goStory[part]}`)
						.join('\n')}`
		);
	}
	return {
		passed: problems.filter((p) => p === null).length,
		failed: problems.filter((p) => p !== null).length,
		problems: problems.filter((p): p is string => p !== null)
	};
}

if (isMain(import.meta.url)) {
	const result = await sameStoryInBoth();
	console.log(result.problems.join('\n\n'));
	console.log(`the same story in both languages: ${result.passed} pairs alike, ${result.failed} not`);
	process.exitCode = result.failed ? 1 : 0;
}
