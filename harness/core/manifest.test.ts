import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exercises, inTheLesson } from './manifest.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('exercises/manifest.json', () => {
	it('lists every numbered exercise folder, in order, and nothing else', () => {
		const folders = readdirSync(join(root, 'exercises')).filter((name) => /^\d\d-/.test(name));
		expect(exercises().map((e) => e.folder)).toEqual(folders.sort());
	});
	it('says where an exercise meets PostgreSQL in one of the words the configs read', () => {
		for (const exercise of exercises())
			expect([undefined, 'also', 'only'], exercise.folder).toContain(exercise.postgres);
	});
	for (const exercise of exercises()) {
		it(`${exercise.folder}: its learner files exist, with a solution for each`, () => {
			expect(exercise.learnerFiles.length).toBeGreaterThan(0);
			for (const file of exercise.learnerFiles) {
				expect(
					existsSync(join(root, 'exercises', exercise.folder, file)),
					`exercises/${exercise.folder}/${file}`
				).toBe(true);
				expect(
					existsSync(join(root, 'solutions', exercise.folder, file)),
					`solutions/${exercise.folder}/${file}`
				).toBe(true);
			}
		});
		if (exercise.goLearnerFiles)
			it(`${exercise.folder}: its Go learner files exist, with a Go solution for each`, () => {
				for (const file of exercise.goLearnerFiles ?? []) {
					for (const tree of ['exercises', 'solutions'])
						expect(
							existsSync(join(root, 'go', tree, exercise.folder, file)),
							`go/${tree}/${exercise.folder}/${file}`
						).toBe(true);
				}
			});
		if (exercise.goLearnerFiles)
			it(`${exercise.folder}: its README has a Go section naming the file to edit and the command to run`, () => {
				const readme = readFileSync(join(root, 'exercises', exercise.folder, 'README.md'), 'utf8');
				const section = readme.split(/^## In Go$/m)[1]?.split(/^## /m)[0] ?? '';
				expect(section, `exercises/${exercise.folder}/README.md: no "## In Go" section`).not.toBe('');
				expect(section).toContain(`go/exercises/${exercise.folder}/`);
				for (const file of exercise.goLearnerFiles ?? []) expect(section).toContain(file);
				expect(section).toContain(`go test ./exercises/${exercise.folder}`);
			});
	}
	it("maps every exercise to the lesson's sections, in the README's table and under each exercise's title", () => {
		const readme = readFileSync(join(root, 'README.md'), 'utf8');
		for (const exercise of exercises()) {
			const lesson = exercise.lesson ?? [];
			expect(lesson.length, `${exercise.folder}: its lesson sections`).toBeGreaterThan(0);
			for (const section of lesson) expect(section, exercise.folder).toMatch(/^(0[1-9]|10) \S/);
			const own = readFileSync(join(root, 'exercises', exercise.folder, 'README.md'), 'utf8').split('\n');
			expect(own[2], `exercises/${exercise.folder}/README.md, under its title`).toBe(inTheLesson(exercise));
			const row = readme.split('\n').find((line) => line.startsWith(`| \`exercises/${exercise.folder}/\``));
			const cells = row?.split('|').map((cell) => cell.trim());
			const sections = lesson.map((section) => `§${section.slice(0, 2)}`).join(', ');
			expect(cells?.at(-2), `README.md's table, the row of ${exercise.folder}`).toBe(sections);
		}
	});
	it('every Go exercise folder is in the manifest, with its Go learner files', () => {
		const folders = readdirSync(join(root, 'go', 'exercises')).filter((name) => /^\d\d-/.test(name));
		expect(
			exercises()
				.filter((e) => e.goLearnerFiles)
				.map((e) => e.folder)
		).toEqual(folders.sort());
	});
});
