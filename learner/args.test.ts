import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { chooseExercise, LearnerError, readArgs } from './args.ts';

const first = exercises()[0]!;

describe('choosing an exercise', () => {
	it.each([
		first.id,
		String(Number(first.id)),
		first.folder,
		`exercises/${first.folder}/`,
		`./exercises/${first.id}`
	])('"%s" names the first exercise', (word) => {
		expect(chooseExercise(word, 'hint').folder).toBe(first.folder);
	});
	it('no number: asks which one, lists them all, and shows the command', () => {
		const error = (() => {
			try {
				chooseExercise(undefined, 'hint');
			} catch (thrown) {
				return thrown as Error;
			}
		})();
		expect(error).toBeInstanceOf(LearnerError);
		expect(error?.message).toContain(
			`Which exercise? Give its number, for example: npm run hint -- ${first.id}`
		);
		for (const exercise of exercises())
			expect(error?.message).toContain(`${exercise.id} · ${exercise.title}`);
	});
	it('an unknown number: says so, lists them all, and shows the command', () => {
		expect(() => chooseExercise('99', 'reset')).toThrow(/There is no exercise "99"[\s\S]*npm run reset -- /);
		expect(() => chooseExercise('first', 'watch')).toThrow(LearnerError);
	});
});

describe('reading the arguments', () => {
	it('takes words and known flags typed after --', () => {
		const args = readArgs(['yes'], ['01', '--yes'], {});
		expect(args.words).toEqual(['01']);
		expect([...args.flags]).toEqual(['yes']);
	});
	it('hears --yes when npm kept it for itself (`npm run reset 01 --yes`)', () => {
		expect(readArgs(['yes'], ['01'], { npm_config_yes: 'true' }).flags.has('yes')).toBe(true);
		expect(readArgs(['yes'], ['01'], { npm_config_yes: '' }).flags.has('yes')).toBe(false);
	});
	it('refuses an option it does not know, naming the ones it does', () => {
		expect(() => readArgs(['yes'], ['01', '--force'], {})).toThrow(
			'Unknown option --force. This command knows: --yes.'
		);
	});
});
