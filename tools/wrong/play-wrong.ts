// Plays every wrong solution against its exercise's tests in one Vitest run, and checks that each one fails
// on the test meant to catch its mistake, with the words that explain it.
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { heading } from '#harness/core/manifest.ts';
import { wrongSolutions, type Located } from './wrong-solutions.ts';

const config = fileURLToPath(new URL('./vitest.config.ts', import.meta.url));

export type Ran = { project: string; name: string; failed: boolean; message: string };
export type Verdict = { wrong: Located; problem: string | null };

// Runs the wrong solutions' Vitest projects and lists every test each one ran.
export async function runWrongSolutions(): Promise<Ran[]> {
	const exitCode = process.exitCode;
	const vitest = await createVitest('test', { config, watch: false, reporters: [{}] }); // quiet: the verdicts say it all
	try {
		await vitest.start();
		return vitest.state.getTestModules().flatMap((module) =>
			[...module.children.allTests()].map((test) => {
				const result = test.result();
				return {
					project: module.project.name,
					name: test.fullName,
					failed: result.state === 'failed',
					message: (result.errors ?? []).map((error) => error.message).join('\n')
				};
			})
		);
	} finally {
		await vitest.close();
		process.exitCode = exitCode; // A wrong solution's failures are what we want, not the command's.
	}
}

// null when the named test failed saying every snippet; otherwise what is missing.
export function judgeWrong(wrong: Located, ran: Ran[]): string | null {
	const label = `wrong solution "${wrong.name}" (${wrong.exercise}: ${wrong.mistake})`;
	const mine = ran.filter((test) => test.project === wrong.name);
	if (mine.length === 0) return `${label}: no test ran against it`;
	const fullName = `${heading(wrong.exercise)} > ${wrong.test}`;
	const test = mine.find((t) => t.name === fullName);
	if (!test) {
		const names = mine.map((t) => `${t.failed ? '✘' : ' '} ${t.name}`).join('\n');
		return `${label}: no test named "${fullName}". Its tests (✘ failed) are:\n${names}`;
	}
	if (!test.failed) {
		const others = mine.filter((t) => t.failed).map((t) => `  ${t.name}`);
		const caught = others.length
			? `It fails only:\n${others.join('\n')}`
			: 'Every test passes: a gap in the tests.';
		return `${label}: "${wrong.test}" passes, but it is the test meant to catch this mistake. ${caught}`;
	}
	const unsaid = wrong.says.filter((words) => !test.message.includes(words));
	if (unsaid.length === 0) return null;
	return `${label}: "${wrong.test}" fails, but its message does not say ${unsaid.map((w) => JSON.stringify(w)).join(', ')}. It says:\n${test.message}`;
}

export async function playWrongSolutions(): Promise<Verdict[]> {
	const wrong = wrongSolutions();
	const ran = await runWrongSolutions();
	return wrong.map((w) => ({ wrong: w, problem: judgeWrong(w, ran) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const verdicts = await playWrongSolutions();
	for (const { wrong, problem } of verdicts)
		console.log(problem ? `✘ ${problem}` : `✔ ${wrong.name}: caught by "${wrong.test}"`);
	const failed = verdicts.filter((v) => v.problem).length;
	console.log(`wrong solutions: ${verdicts.length - failed} caught, ${failed} not`);
	process.exitCode = failed ? 1 : 0;
}
