import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { PatchError } from './patch.ts';
import {
	patchedFiles,
	solutionsDir,
	wrongSolution,
	wrongSolutions,
	writeWrongSolution,
	WrongSolutionError
} from './wrong-solutions.ts';

const header = {
	exercise: '02',
	mistake: 'replay forgets the subject',
	test: 'ReceiptHandler > Same key, different request',
	says: ['Schedule "same-key-different-request"', 'delivery 2']
};
// 02's replay without its subject check, as a hunk made from the solution as it is now.
function forgetTheSubject(path = 'solutions/02-same-event/handler.ts'): string {
	const lines = readFileSync(join(solutionsDir, '02-same-event', 'handler.ts'), 'utf8').split('\n');
	const at = lines.findIndex((line) => line.includes('receipt.subject !== event.subject'));
	return [
		`--- a/${path}`,
		`+++ b/${path}`,
		`@@ -${at},2 +${at},1 @@`,
		` ${lines[at - 1]}`,
		`-${lines[at]}`,
		''
	].join('\n');
}
const headerText = (fields: Record<string, string | string[]>) =>
	Object.entries(fields)
		.flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${key}: ${v}`))
		.join('\n');

describe('solutions/wrong/<mistake>.patch', () => {
	const dirs: string[] = [];
	afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
	// A wrong/ folder holding these files.
	function folder(files: Record<string, string>): string {
		const dir = mkdtempSync(join(tmpdir(), 'wrong-'));
		dirs.push(dir);
		for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
		return dir;
	}

	it('every patch reads, and applies to its solution, changing only its learner files', () => {
		const all = wrongSolutions();
		expect(all.length).toBeGreaterThan(0);
		for (const wrong of all) {
			const patched = patchedFiles(wrong);
			expect(Object.keys(patched), wrong.name).toEqual(wrong.files);
			for (const [file, text] of Object.entries(patched))
				expect(text, `${wrong.name} changes ${file}`).not.toBe(
					readFileSync(join(solutionsDir, wrong.folder, file), 'utf8')
				);
		}
	});
	it('reads a header and its diff, and finds the exercise folder', () => {
		const dir = folder({ 'forgets-the-subject.patch': `${headerText(header)}\n\n${forgetTheSubject()}` });
		expect(wrongSolutions(dir)).toEqual([
			{
				...header,
				name: 'forgets-the-subject',
				folder: '02-same-event',
				files: ['handler.ts'],
				path: join(dir, 'forgets-the-subject.patch'),
				language: 'typescript'
			}
		]);
		const { 'handler.ts': text } = patchedFiles(wrongSolution('forgets-the-subject', dir));
		expect(text).not.toContain('receipt.subject !== event.subject');
		const into = folder({});
		expect(writeWrongSolution(wrongSolution('forgets-the-subject', dir), into)).toEqual([
			join(into, '02-same-event', 'handler.ts')
		]);
		expect(readFileSync(join(into, '02-same-event', 'handler.ts'), 'utf8')).toBe(text);
	});

	it("reads a Go one, against go/solutions/, as Go's: its learner files are the manifest's goLearnerFiles", () => {
		const lines = readFileSync(
			join(workbookRoot, 'go', 'solutions', '02-same-event', 'handler.go'),
			'utf8'
		).split('\n');
		const at = lines.findIndex((line) => line.includes('receipt.Event.Subject != event.Subject'));
		const path = 'go/solutions/02-same-event/handler.go';
		const diff = [
			`--- a/${path}`,
			`+++ b/${path}`,
			`@@ -${at + 1},1 +${at + 1},1 @@`,
			`-${lines[at]}`,
			'+\tif false {',
			''
		];
		const dir = folder({ 'forgets-the-subject.patch': `${headerText(header)}\n\n${diff.join('\n')}` });
		const [wrong] = wrongSolutions(dir);
		expect([wrong?.language, wrong?.files]).toEqual(['go', ['handler.go']]);
		expect(patchedFiles(wrong!)['handler.go']).not.toContain('receipt.Event.Subject != event.Subject');
	});

	// A one-line change to a Go file: its first line, replaced by a comment.
	const firstLine = (path: string) => {
		const first = readFileSync(join(workbookRoot, path), 'utf8').split('\n')[0];
		return [`--- a/${path}`, `+++ b/${path}`, '@@ -1,1 +1,1 @@', `-${first}`, '+// gone', ''].join('\n');
	};

	it('refuses a Go patch of the harness (go/endpoint): only learner files are a solution', () => {
		const go = { ...header, exercise: '06', test: 'TestExplorations' };
		const dir = folder({ 'x.patch': `${headerText(go)}\n\n${firstLine('go/endpoint/endpoint.go')}` });
		expect(() => wrongSolutions(dir)).toThrow(/"go\/endpoint\/endpoint.go" is not a learner file of 06/);
	});

	it("reads a Go patch of 06's learner file: its test runs in the exercise's package", () => {
		const go = { ...header, exercise: '06', test: 'TestExplorations' };
		const path = 'go/solutions/06-ticket-endpoint/endpoint.go';
		const [wrong] = wrongSolutions(folder({ 'x.patch': `${headerText(go)}\n\n${firstLine(path)}` }));
		expect([wrong?.language, wrong?.goPackage, wrong?.files]).toEqual([
			'go',
			'exercises/06-ticket-endpoint',
			['endpoint.go']
		]);
		expect(patchedFiles(wrong!)['endpoint.go']).toMatch(/^\/\/ gone\n/);
	});

	const bad: [string, Record<string, string | string[]>, string, RegExp][] = [
		['a missing field', { ...header, test: [] }, forgetTheSubject(), /needs one "test:" line, it has 0/],
		[
			'a field twice',
			{ ...header, test: ['a', 'b'] },
			forgetTheSubject(),
			/needs one "test:" line, it has 2/
		],
		['no says', { ...header, says: [] }, forgetTheSubject(), /needs a "says:" line/],
		[
			'a misspelled field',
			{ ...header, mistakes: 'x' },
			forgetTheSubject(),
			/x\.patch:6: not a header line: "mistakes: x"/
		],
		['an unknown exercise', { ...header, exercise: '99' }, forgetTheSubject(), /no exercise "99"/],
		[
			'a file the learner does not edit',
			header,
			forgetTheSubject('solutions/02-same-event/handler.test.ts'),
			/x\.patch:7: "solutions\/02-same-event\/handler\.test\.ts" is not a learner file of 02-same-event \(handler\.ts\)/
		],
		[
			"another exercise's file",
			header,
			forgetTheSubject('solutions/01-first-handler/handler.ts'),
			/"solutions\/01-first-handler\/handler\.ts" is not a learner file of 02-same-event/
		],
		[
			'one file twice',
			header,
			forgetTheSubject() + forgetTheSubject(),
			/x\.patch:12: .* again: one diff per file/
		]
	];
	for (const [what, fields, diff, message] of bad) {
		it(`names the file and the line for ${what}`, () => {
			const dir = folder({ 'x.patch': `${headerText(fields)}\n\n${diff}` });
			expect(() => wrongSolutions(dir)).toThrow(WrongSolutionError);
			expect(() => wrongSolutions(dir)).toThrow(message);
		});
	}
	it('names anything in the folder that is not a <mistake>.patch', () => {
		expect(() => wrongSolutions(folder({ 'notes.md': '' }))).toThrow(/notes\.md: not a wrong solution/);
		expect(() => wrongSolutions(folder({ 'Not_Kebab.patch': '' }))).toThrow(/in kebab-case/);
		expect(() => wrongSolution('no-such-mistake')).toThrow(
			/no-such-mistake\.patch: there is no such wrong solution/
		);
	});
	it('says which patch, hunk and line no longer apply', () => {
		const stale = forgetTheSubject().replace(/^ (.*)$/m, ' $1 // changed since');
		const dir = folder({ 'stale.patch': `${headerText(header)}\n\n${stale}` });
		const [wrong] = wrongSolutions(dir);
		expect(() => patchedFiles(wrong!)).toThrow(PatchError);
		expect(() => patchedFiles(wrong!)).toThrow(
			/stale\.patch:9: hunk 1 \(@@ -\d+,2 \+\d+,1 @@\) does not apply to solutions\/02-same-event\/handler\.ts: line \d+ is ".*", the hunk expects ".* \/\/ changed since"/
		);
	});
});
