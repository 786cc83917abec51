// What a learner typed after `npm run <command>`, and which exercise they meant.
import { exercises, type Exercise } from '#harness/core/manifest.ts';

// A mistake in what the learner typed: printed as it is, with no stack trace.
export class LearnerError extends Error {
	override name = 'LearnerError';
}

export type Args = { words: string[]; flags: Set<string> };

// `npm run reset 01 --yes` keeps --yes for npm itself and tells the script only through npm_config_yes,
// so a flag counts when it is typed after `--` or when npm passes it on that way.
export function readArgs(known: string[], argv = process.argv.slice(2), env = process.env): Args {
	const flags = new Set<string>();
	const words: string[] = [];
	for (const arg of argv) {
		if (!arg.startsWith('-')) words.push(arg);
		else if (known.includes(arg.replace(/^-+/, ''))) flags.add(arg.replace(/^-+/, ''));
		else
			throw new LearnerError(
				`Unknown option ${arg}. This command knows: ${known.map((f) => `--${f}`).join(', ') || 'none'}.`
			);
	}
	for (const flag of known) if (env[`npm_config_${flag.replace(/-/g, '_')}`] === 'true') flags.add(flag);
	return { words, flags };
}

// The exercises, one a line: "  01 · The first handler   exercises/01-first-handler/".
export function listExercises(list: Exercise[]): string {
	const width = Math.max(...list.map((e) => `${e.id} · ${e.title}`.length));
	return list.map((e) => `  ${`${e.id} · ${e.title}`.padEnd(width)}   exercises/${e.folder}/`).join('\n');
}

// "03", "3", "03-the-race" and "exercises/03-the-race/" all name exercise 03.
export function chooseExercise(word: string | undefined, command: string, root?: string): Exercise {
	const list = exercises(root);
	const example = `npm run ${command} -- ${list[0]?.id ?? '01'}`;
	if (word === undefined || word.trim() === '') {
		throw new LearnerError(
			`Which exercise? Give its number, for example: ${example}\n\n${listExercises(list)}`
		);
	}
	const name = word
		.trim()
		.replace(/^(\.\/)?(exercises\/)?/, '')
		.replace(/\/+$/, '');
	const found = /^\d+$/.test(name)
		? list.find((e) => Number(e.id) === Number(name))
		: list.find((e) => e.folder === name);
	if (found) return found;
	throw new LearnerError(
		`There is no exercise "${word}". The exercises are:\n\n${listExercises(list)}\n\nGive one of these numbers, for example: ${example}`
	);
}

// Runs a learner's command: a LearnerError is printed plainly; anything else is a bug and keeps its stack.
export async function runLearnerCommand(main: () => Promise<number> | number): Promise<void> {
	try {
		process.exitCode = await main();
	} catch (error) {
		if (!(error instanceof LearnerError)) throw error;
		console.error(error.message);
		process.exitCode = 2;
	}
}
