// Which submissions() and afterAnswer() the page runs, as the Vite module `virtual:key-store`.
//
//   auto       the learner's exercises/04-send-button-key/submission.ts once it is written, else the solution's
//   learner    the learner's file, even while it still throws "not written yet" (the journeys' check)
//   solution   solutions/04-send-button-key/submission.ts
//   wrong:<n>  solutions/wrong/<n>/04-send-button-key/submission.ts, a plausible mistake the journeys must catch
//
// The page shows the label, so a learner always knows whose code is answering.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

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

export function wrongFile(name: string): string {
	const path = `${root}solutions/wrong/${name}/${file}`;
	if (!existsSync(path))
		throw new Error(`solutions/wrong/${name}/ has no ${file}: not a 04 key-store mistake`);
	return path;
}

// The module's source: one or two imports, and the label the page shows.
export function keyStoreModule(choice: CodeChoice): string {
	const one = (path: string, label: string) =>
		`import * as code from ${JSON.stringify(path)};\n` +
		`export const keyStore = { ...code, label: ${JSON.stringify(label)} };\n`;
	if (choice === 'learner') return one(learnerFile, `your code, exercises/${file}`);
	if (choice === 'solution') return one(solutionFile, `the solution, solutions/${file}`);
	if (choice.startsWith('wrong:')) {
		const name = choice.slice('wrong:'.length);
		return one(wrongFile(name), `a wrong solution, solutions/wrong/${name}/${file}`);
	}
	return [
		`import * as learner from ${JSON.stringify(learnerFile)};`,
		`import * as solution from ${JSON.stringify(solutionFile)};`,
		`import { pickWritten } from ${JSON.stringify(pickFile)};`,
		`export const keyStore = pickWritten(learner, solution);`,
		''
	].join('\n');
}

export function keyStorePlugin(choice: CodeChoice): Plugin {
	return {
		name: 'key-store',
		resolveId: (source) => (source === id ? `\0${id}` : null),
		load: (loaded) => (loaded === `\0${id}` ? keyStoreModule(choice) : null)
	};
}
