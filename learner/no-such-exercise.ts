// What `npm test exercises/99` prints when no exercise has that number: the list, as hint and reset say it.
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { LearnerError, listExercises, runLearnerCommand } from './args.ts';

await runLearnerCommand(() => {
	const list = exercises(workbookRoot);
	throw new LearnerError(
		`There is no exercise "${process.argv[2]}". The exercises are:\n\n${listExercises(list)}\n\nRun one by its number, for example: npm test exercises/${list[0]?.id ?? '01'}`
	);
});
