// The hints as the house wants them: headings split them, questions come first, every shipped file is fit,
// and Go's (hints.go.md) are TypeScript's hints in TypeScript's order, with nothing of TypeScript's in them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exercises, goExercises, workbookRoot } from '#harness/core/manifest.ts';
import { goNames, typeScriptIn } from './go-hints.ts';
import { goWrongDir, wrongSolutions } from './wrong-solutions.ts';
import { hintProblems, hintsFile, parseHints, readHints, unlikeProblems } from './hints.ts';

describe('hints.md', () => {
	it('splits at "## " headings and drops what comes before the first', () => {
		const hints = parseHints(
			'<!-- for maintainers -->\n# Title\n\n## Why?\n\nBecause.\n\n## Answer: this\n\nDo this.\n'
		);
		expect(hints).toEqual([
			{ title: 'Why?', body: 'Because.' },
			{ title: 'Answer: this', body: 'Do this.' }
		]);
	});
	it('wants questions before answers, and words under every heading', () => {
		expect(hintProblems(parseHints('## Answer\nx\n## Why?\ny\n'))).toEqual([
			'the first hint, "Answer", is not a question',
			'hint 2, "Why?", is a question after an answer'
		]);
		expect(hintProblems(parseHints('## Why?\n## How?\nz\n'))).toContain(
			'hint 1, "Why?", has no text under its heading'
		);
	});
	for (const exercise of exercises())
		it(`${hintsFile(exercise)} is there, and fit to ship`, () => {
			expect(
				existsSync(join(workbookRoot, hintsFile(exercise))),
				`${hintsFile(exercise)}: npm run hint reads it`
			).toBe(true);
			expect(hintProblems(readHints(workbookRoot, exercise))).toEqual([]);
		});
});

describe('hints.go.md', () => {
	const names = goNames(workbookRoot);
	const one = (markdown: string) => typeScriptIn(parseHints(markdown), names);

	it('wants as many hints as hints.md, the N-th a question in both or an answer in both', () => {
		const ts = parseHints('## Why?\na\n## Answer\nb\n');
		expect(unlikeProblems(ts, parseHints('## Why?\na\n'))[0]).toContain('has 1 hints where hints.md has 2');
		expect(unlikeProblems(ts, parseHints('## Why?\na\n## How?\nb\n'))).toEqual([
			`hint 2, "How?", is a question where hints.md's is not`
		]);
		expect(unlikeProblems(ts, parseHints('## Why, in Go?\nc\n## Answer in Go\nd\n'))).toEqual([]);
	});
	it("tells each word of TypeScript's: a .ts file, #harness, npm, its syntax, a name Go spells otherwise", () => {
		const said = one(
			'## Where?\nSee `handler.ts`, from `#harness/core/model.ts`; run `npm test`.\n' +
				"## Answer\nReturn `copyDatabase(this.db)` from `snapshot()`, `{ kind: 'created' }`.\n"
		);
		for (const word of [
			'a TypeScript file, handler.ts',
			'an import through #harness',
			'an npm command',
			"TypeScript's this.",
			"TypeScript's a string in single quotes",
			'copyDatabase, which Go spells CopyDatabase',
			'snapshot, which Go spells Snapshot'
		])
			expect(said.join('\n')).toContain(word);
	});
	it("leaves Go alone: Go's names, its builtins, a field Go spells in lower case, a string in Go's quotes", () => {
		expect(
			one(
				'## Where?\nIn the `db Database` field of `TicketHandler`.\n' +
					'## Answer\n`ticketID := len(h.db.Tickets) + 1`, then `return Outcome{"created", ticketID}`;' +
					' `Snapshot` returns `CopyDatabase(h.db)`. Run `go test ./exercises/01-first-handler`.\n'
			)
		).toEqual([]);
	});
	for (const exercise of exercises())
		it(`the rule catches ${hintsFile(exercise)}, which is TypeScript's`, () => {
			expect(typeScriptIn(readHints(workbookRoot, exercise), names)).not.toEqual([]);
		});
	for (const exercise of goExercises())
		it(`${hintsFile(exercise, 'go')} is there, fit to ship, hints.md's in Go`, () => {
			expect(
				existsSync(join(workbookRoot, hintsFile(exercise, 'go'))),
				`${hintsFile(exercise, 'go')}: go run ./cmd/workbook hint reads it`
			).toBe(true);
			const go = readHints(workbookRoot, exercise, 'go');
			expect(hintProblems(go)).toEqual([]);
			expect(unlikeProblems(readHints(workbookRoot, exercise), go)).toEqual([]);
			expect(typeScriptIn(go, names)).toEqual([]);
		});
	// The grader quotes a Go learner's named mistake by its TypeScript patch's "hint: N", from hints.go.md.
	it('gives a mistake named in both languages one hint number, which hints.go.md has', () => {
		const typescript = new Map(wrongSolutions().map((wrong) => [wrong.name, wrong.hint]));
		const slips = wrongSolutions(goWrongDir).flatMap((wrong) => {
			const exercise = exercises().find((e) => e.folder === wrong.folder)!;
			const count = readHints(workbookRoot, exercise, 'go').length;
			const twin = typescript.get(wrong.name);
			return [
				...(wrong.hint !== undefined && wrong.hint > count
					? [`${wrong.name}: hint ${wrong.hint} of ${count}`]
					: []),
				...(wrong.hint !== undefined && twin !== undefined && twin !== wrong.hint
					? [`${wrong.name}: hint ${wrong.hint} in Go, ${twin} in TypeScript`]
					: [])
			];
		});
		expect(slips).toEqual([]);
	});
});
