// npm run postgres -- 03: the exercise's tests, with your own files, on a real PostgreSQL the run starts and
// stops itself (harness/postgres/). The schedules play there; the stories and traces read as with
// `npm test`. Only 03 and 05 talk to a database.
import { spawn } from 'node:child_process';
import { workbookRoot } from '#harness/core/manifest.ts';
import { bin } from '../lib/run.ts';
import { chooseExercise, LearnerError, readArgs, runLearnerCommand } from './args.ts';

export const onPostgres = ['03', '05'];

// The Vitest command line that plays one exercise on PostgreSQL.
export function postgresArgs(root: string, word: string | undefined): string[] {
	const exercise = chooseExercise(word, 'postgres', root);
	if (!onPostgres.includes(exercise.id))
		throw new LearnerError(
			`${exercise.id} · ${exercise.title} does not talk to a database. On PostgreSQL: ${onPostgres.map((id) => `npm run postgres -- ${id}`).join(' or ')}.`
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
