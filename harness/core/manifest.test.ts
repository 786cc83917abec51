import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exercises } from './manifest.ts';

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
	}
});
