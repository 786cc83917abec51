// npm run postgres -- 03: the exercise's tests, with your own files, on a real PostgreSQL the run starts and
// stops itself (harness/postgres/). The schedules play there; the stories and traces read as with `npm test`,
// in its short report (`-- --all`: Vitest's own). It plays the exercises whose manifest entry says
// "postgres": "also".
import { spawn } from 'node:child_process';
import { onPostgres, workbookRoot } from '#harness/core/manifest.ts';
import { bin } from '../lib/run.ts';
import { chooseExercise, LearnerError, readArgs, runLearnerCommand } from './args.ts';
import { isMain } from '../lib/main-module.ts';

// The Vitest command line that plays one exercise on PostgreSQL, with npm test's short report unless `all`.
export function postgresArgs(root: string, word: string | undefined, { all = false } = {}): string[] {
	const exercise = chooseExercise(word, 'postgres', root);
	const named = `${exercise.id} · ${exercise.title}`;
	if (exercise.postgres === 'only')
		throw new LearnerError(
			`${named} plays on PostgreSQL already: npm test exercises/${exercise.id} starts one.`
		);
	if (exercise.postgres !== 'also')
		throw new LearnerError(
			`${named} does not talk to a database. On PostgreSQL: ${onPostgres('also', root)
				.map(({ id }) => `npm run postgres -- ${id}`)
				.join(' or ')}.`
		);
	const reporter = all ? [] : ['--reporter=./learner/loop-reporter.ts'];
	return ['run', '--project', 'postgres-learner', ...reporter, `exercises/${exercise.folder}/`];
}

if (isMain(import.meta.url)) {
	await runLearnerCommand(
		() =>
			new Promise<number>((resolve) => {
				const { words, flags } = readArgs(['all']);
				const args = postgresArgs(workbookRoot, words[0], { all: flags.has('all') });
				console.log(
					`Playing ${args.at(-1)} on PostgreSQL: a server of its own, started now and stopped at the end.`
				);
				const vitest = spawn(bin('vitest'), args, { cwd: workbookRoot, stdio: 'inherit' });
				vitest.on('close', (code) => resolve(code ?? 0));
			})
	);
}
