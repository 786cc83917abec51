import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exercises, workbookRoot } from '#harness/core/manifest.ts';
import { reset, shippedCopy } from './reset.ts';
import { solve, tempWorkbook } from './temp-workbook.ts';

const [first, second] = exercises();

describe('learner/shipped/ holds every learner file as shipped', () => {
	for (const exercise of exercises()) {
		for (const file of exercise.learnerFiles) {
			it(shippedCopy(exercise.folder, file), () => {
				const pristine = join(workbookRoot, shippedCopy(exercise.folder, file));
				const how = `npm run reset copies it from there. If the change to the stub is meant, copy it: cp exercises/${exercise.folder}/${file} ${shippedCopy(exercise.folder, file)}`;
				expect(existsSync(pristine), `${shippedCopy(exercise.folder, file)} is missing. ${how}`).toBe(true);
				const shipped = readFileSync(join(workbookRoot, 'exercises', exercise.folder, file), 'utf8');
				expect(
					readFileSync(pristine, 'utf8'),
					`it differs from exercises/${exercise.folder}/${file}. ${how}`
				).toBe(shipped);
			});
		}
	}
});

describe('npm run reset, on a copy of the workbook', () => {
	let root: string;
	let remove: () => void;
	beforeEach(() => ({ root, remove } = tempWorkbook()));
	afterEach(() => remove());
	const read = (folder: string, file: string) => readFileSync(join(root, 'exercises', folder, file), 'utf8');
	const shipped = (folder: string, file: string) =>
		readFileSync(join(root, shippedCopy(folder, file)), 'utf8');

	it('leaves files that are as shipped alone, and says so', () => {
		const done = reset(root, first!.id, false);
		expect(done.code).toBe(0);
		expect(done.text).toContain('already as shipped; nothing to reset');
	});
	it('without --yes, names the changed files, changes nothing, and shows the command', () => {
		solve(root, first!.folder, first!.learnerFiles);
		const refused = reset(root, first!.id, false);
		expect(refused.code).toBe(1);
		expect(refused.text).toContain(`exercises/${first!.folder}/${first!.learnerFiles[0]}  (changed by you)`);
		expect(refused.text).toContain(`npm run reset -- ${first!.id} --yes`);
		expect(read(first!.folder, first!.learnerFiles[0]!)).not.toBe(
			shipped(first!.folder, first!.learnerFiles[0]!)
		);
	});
	it('with --yes, puts the files back, keeps the learner version, and leaves other exercises alone', () => {
		solve(root, first!.folder, first!.learnerFiles);
		solve(root, second!.folder, second!.learnerFiles);
		const mine = read(first!.folder, first!.learnerFiles[0]!);
		const done = reset(root, first!.id, true, new Date('2026-01-02T03:04:05Z'));
		expect(done.code).toBe(0);
		for (const file of first!.learnerFiles)
			expect(read(first!.folder, file)).toBe(shipped(first!.folder, file));
		const kept = join(root, '.learner', 'before-reset', '2026-01-02T03-04-05-000Z', first!.folder);
		expect(readFileSync(join(kept, first!.learnerFiles[0]!), 'utf8')).toBe(mine);
		expect(done.text).toContain('.learner/before-reset/2026-01-02T03-04-05-000Z/');
		for (const file of second!.learnerFiles)
			expect(read(second!.folder, file)).toBe(
				readFileSync(join(root, 'solutions', second!.folder, file), 'utf8')
			);
	});
	it('puts back a deleted learner file without asking: there is nothing to lose', () => {
		rmSync(join(root, 'exercises', first!.folder, first!.learnerFiles[0]!));
		expect(reset(root, first!.id, false).code).toBe(0);
		expect(read(first!.folder, first!.learnerFiles[0]!)).toBe(
			shipped(first!.folder, first!.learnerFiles[0]!)
		);
		expect(existsSync(join(root, '.learner'))).toBe(false);
	});
	it('says which shipped copy is missing instead of guessing', () => {
		writeFileSync(join(root, 'exercises', first!.folder, first!.learnerFiles[0]!), '// mine');
		rmSync(join(root, shippedCopy(first!.folder, '')), { recursive: true });
		expect(() => reset(root, first!.id, true)).toThrow(
			`${shippedCopy(first!.folder, first!.learnerFiles[0]!)} is missing`
		);
		expect(read(first!.folder, first!.learnerFiles[0]!)).toBe('// mine');
	});
});
