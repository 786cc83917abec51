// Which submissions() and afterAnswer() the page runs, as the Vite module `virtual:key-store`.
//
//   auto       the learner's exercises/04-send-button-key/submission.ts once it is written, else the solution's
//   learner    the learner's file, even while it still throws "not written yet" (the journeys' check)
//   solution   solutions/04-send-button-key/submission.ts
//   wrong:<n>  the solution with solutions/wrong/<n>.patch applied (in memory), a plausible mistake the journeys
//              must catch
//
// The page shows the label, so a learner always knows whose code is answering.
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { loadWrong, wrongId } from '../../lib/redirect.ts';
import { wrongSolution, type WrongSolution } from '../../lib/wrong-solutions.ts';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const file = '04-send-button-key/submission.ts';
export const learnerFile = `${root}exercises/${file}`;
export const solutionFile = `${root}solutions/${file}`;
const pickFile = fileURLToPath(new URL('../pick.ts', import.meta.url));
const id = 'virtual:key-store';

export type CodeChoice = 'auto' | 'learner' | 'solution' | `wrong:${string}`;

export function isCodeChoice(text: string): text is CodeChoice {
	return ['auto', 'learner', 'solution'].includes(text) || text.startsWith('wrong:');
}

// A wrong solution that changes 04's submission.ts.
export function keyStoreMistake(name: string): WrongSolution {
	const wrong = wrongSolution(name);
	if (wrong.files.map((changed) => `${wrong.folder}/${changed}`).join() !== file)
		throw new Error(
			`solutions/wrong/${name}.patch does not change ${file} alone: not a 04 key-store mistake`
		);
	return wrong;
}

const mistakeOf = (choice: CodeChoice) =>
	choice.startsWith('wrong:') ? keyStoreMistake(choice.slice('wrong:'.length)) : null;

// The module's source: one or two imports, and the label the page shows.
export function keyStoreModule(choice: CodeChoice): string {
	const one = (path: string, label: string) =>
		`import * as code from ${JSON.stringify(path)};\n` +
		`export const keyStore = { ...code, label: ${JSON.stringify(label)} };\n`;
	if (choice === 'learner') return one(learnerFile, `your code, exercises/${file}`);
	if (choice === 'solution') return one(solutionFile, `the solution, solutions/${file}`);
	const wrong = mistakeOf(choice);
	if (wrong)
		return one(wrongId(wrong, wrong.files[0]!), `a wrong solution, solutions/wrong/${wrong.name}.patch`);
	return [
		`import * as learner from ${JSON.stringify(learnerFile)};`,
		`import * as solution from ${JSON.stringify(solutionFile)};`,
		`import { pickWritten } from ${JSON.stringify(pickFile)};`,
		`export const keyStore = pickWritten(learner, solution);`,
		''
	].join('\n');
}

export function keyStorePlugin(choice: CodeChoice): Plugin {
	const wrong = mistakeOf(choice);
	return {
		name: 'key-store',
		resolveId: (source) => (source === id ? `\0${id}` : null),
		load(loaded) {
			if (loaded === `\0${id}`) return keyStoreModule(choice);
			return wrong ? loadWrong(wrong, loaded, (watched) => this.addWatchFile(watched)) : null;
		}
	};
}
