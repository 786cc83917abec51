// The lesson's code pasted over a stub must find what it uses: every name a solution imports from the lesson's
// model (#harness/core/model.ts: copyDatabase, the types) its stub imports too, so a learner who starts from the
// lesson's code, which shows no import lines, meets their own mistakes, not "copyDatabase is not defined".
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';

const model = '#harness/core/model.ts';

function namesImportedFrom(source: string, module: string): string[] {
	const lists = [...source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)];
	return lists
		.filter((match) => match[2] === module)
		.flatMap((match) => match[1]!.split(','))
		.map((name) => name.replace(/^\s*type\s+/, '').trim())
		.filter(Boolean);
}

describe("a stub imports what its solution takes from the lesson's model", () => {
	for (const exercise of exercises()) {
		for (const file of exercise.learnerFiles) {
			const solution = join('solutions', exercise.folder, file);
			if (!existsSync(solution)) continue;
			it(`${exercise.folder}/${file}`, () => {
				const stub = namesImportedFrom(readFileSync(join('exercises', exercise.folder, file), 'utf8'), model);
				const wanted = namesImportedFrom(readFileSync(solution, 'utf8'), model);
				expect(
					wanted.filter((name) => !stub.includes(name)),
					`names exercises/${exercise.folder}/${file} should import from ${model}`
				).toEqual([]);
			});
		}
	}
});
