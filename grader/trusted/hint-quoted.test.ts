// A named mistake's hint, quoted in the learner's report in the learner's language: hints.go.md's title and
// go run ./cmd/workbook hint for a diagnosis of a Go run, hints.md's and npm run hint for TypeScript's.
import { describe, expect, it } from 'vitest';
import { exercises } from '#harness/core/manifest.ts';
import { readHints } from '../../lib/hints.ts';
import { root } from '../sandbox/paths.ts';
import type { Diagnosis } from './diagnose.ts';
import type { Graded } from './grade.ts';
import { learnerDiagnosis } from './gradescope.ts';
import { inGo } from './mistakes.ts';

const exercise = exercises().find((e) => e.id === '02')!;
// An answer hint: its title names the language's functions, so the two languages' titles differ.
const n = readHints(root, exercise).findIndex((hint) => hint.title.startsWith('Answer')) + 1;
const [typescript, go] = [
	readHints(root, exercise)[n - 1]!.title,
	readHints(root, exercise, 'go')[n - 1]!.title
];
const named: Diagnosis = {
	kind: 'mistake',
	name: 'joined-identity',
	mistake: 'the identity is one joined string',
	matched: 3,
	of: 3,
	lesson: null,
	hint: n,
	hintTitle: typescript,
	alike: []
};
const reportOf = (diagnosis: Diagnosis) =>
	learnerDiagnosis({ exercises: [{ exercise }], diagnoses: { '02': diagnosis } } as unknown as Graded).join(
		'\n'
	);

describe("a named mistake's hint, quoted in the learner's language", () => {
	it('has two titles to tell apart', () => expect(go).not.toBe(typescript));
	it('quotes hints.md and npm run hint to a TypeScript learner', () => {
		expect(reportOf(named)).toContain(`Read hint ${n} of \`npm run hint -- 02\`: "${typescript}"`);
	});
	it("quotes hints.go.md and go run ./cmd/workbook hint to a Go learner, by the same hint's number", () => {
		const said = reportOf(inGo(named, exercise));
		expect(said).toContain(`Read hint ${n} of \`go run ./cmd/workbook hint 02\`: "${go}"`);
		expect(said).not.toContain('npm run');
	});
	it("sends a Go learner whose mistake is none of the named ones to Go's hints", () => {
		const unnamed: Diagnosis = {
			kind: 'unnamed',
			first: { check: 'c', case: 1, of: 2, heldOut: false, problem: '' },
			closest: null
		};
		expect(reportOf(inGo(unnamed, exercise))).toContain('Read `go run ./cmd/workbook hint 02`.');
		expect(reportOf(unnamed)).toContain('Read `npm run hint -- 02`.');
	});
});
