import { describe, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { postgresArgs } from './postgres.ts';

describe('npm run postgres', () => {
	it('plays 03 and 05 in the postgres-learner project, on the learner files', () => {
		expect(postgresArgs(workbookRoot, '3')).toEqual([
			'run',
			'--project',
			'postgres-learner',
			'--reporter=./learner/loop-reporter.ts',
			'exercises/03-the-race/'
		]);
		expect(postgresArgs(workbookRoot, '05').at(-1)).toBe('exercises/05-email-outbox/');
	});
	it("prints the short report of npm test, and Vitest's own with --all", () => {
		expect(postgresArgs(workbookRoot, '03')).toContain('--reporter=./learner/loop-reporter.ts');
		expect(postgresArgs(workbookRoot, '03', { all: true })).not.toContain(
			'--reporter=./learner/loop-reporter.ts'
		);
	});
	it('says which exercises talk to a database when given another', () => {
		expect(() => postgresArgs(workbookRoot, '01')).toThrow(
			/does not talk to a database.*npm run postgres -- 03/
		);
	});
	it('sends an exercise that stores only in PostgreSQL to npm test', () => {
		expect(() => postgresArgs(workbookRoot, '06')).toThrow(
			'06 · The ticket endpoint: the server side of the key plays on PostgreSQL already: npm test exercises/06 starts one.'
		);
	});
});
