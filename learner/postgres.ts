// npm run postgres -- 03: the exercise's tests, with your own files, on a real PostgreSQL the run starts and
// stops itself (harness/postgres/). The schedules play there; the stories and traces read as with
// `npm test`. It plays the exercises whose manifest entry says "postgres": "also".
import { spawn } from 'node:child_process';
import { onPostgres, workbookRoot } from '#harness/core/manifest.ts';
import { bin } from '../lib/run.ts';
import { chooseExercise, LearnerError, readArgs, runLearnerCommand } from './args.ts';

// The Vitest command line that plays one exercise on PostgreSQL.
export function postgresArgs(root: string, word: string | undefined): string[] {
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
	return ['run', '--project', 'postgres-learner', `exercises/${exercise.folder}/`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
	await runLearnerCommand(
		() =>
			new Promise<number>((resolve) => {
				const args = postgresArgs(workbookRoot, readArgs([]).words[0]);
				console.log(
					`Playing ${args.at(-1)} on PostgreSQL: a server of its own, started now and stopped at the end.`
				);
				const vitest = spawn(bin('vitest'), args, { cwd: workbookRoot, stdio: 'inherit' });
				vitest.on('close', (code) => resolve(code ?? 0));
			})
	);
}
