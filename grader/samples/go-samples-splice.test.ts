// The Go samples' splice (go-samples-splice.ts): each Go sample that rides on the solution holds a marker, never
// a copy of it, and what is spliced is gofmt's layout with every import of both files once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../sandbox/paths.ts';
import { goSamples } from './go-samples.ts';
import { readGoFile, renamed, renamingsOf, solutionMarker, spliceGo } from './go-samples-splice.ts';
import { materializeSamples, samplesDir } from './samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'grader-go-splice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const goFiles = (folder: string): string[] =>
	(existsSync(folder) ? readdirSync(folder, { recursive: true, encoding: 'utf8' }) : [])
		.filter((path) => path.endsWith('.go'))
		.map((path) => join(folder, path));
// The sample files over a Go solution: submissions/<name>/go/exercises/<folder>/<file>.go.
const overSolutions = goSamples.flatMap((sample) =>
	goFiles(join(samplesDir, sample.name)).flatMap((path) => {
		const inGo = relative(join(samplesDir, sample.name, 'go', 'exercises'), path);
		const solution = join(root, 'go', 'solutions', inGo);
		return inGo.startsWith('..') ? [] : [{ sample, path, inGo, solution }];
	})
);
const gofmtSays = (text: string) => spawnSync('gofmt', ['-l'], { input: text, encoding: 'utf8' });

describe('a Go sample rides on the solution as it stands, never on a copy of it', () => {
	it.each(overSolutions.map((file) => [`${file.sample.name}: ${file.inGo}`, file]))(
		'%s holds no copy of the solution',
		(_, { path, solution }) => {
			const code = readGoFile(readFileSync(solution, 'utf8'), solution).code.trim();
			expect(readFileSync(path, 'utf8').includes(code), 'the whole of the solution, copied').toBe(false);
		}
	);

	const spliced = overSolutions.filter((file) => readFileSync(file.path, 'utf8').includes(solutionMarker));
	it('splices the Go 06 samples, those of 01 that add to the solution, and those whose attack is in Handle', () => {
		expect(spliced.map((file) => file.sample.name)).toEqual(
			expect.arrayContaining([
				'go-db-connections',
				'go-db-elsewhere',
				'go-init-exit',
				'go-cgo',
				'go-os-exec',
				'go-reference-read'
			])
		);
	});

	it.each(spliced.map((file) => [`${file.sample.name}: ${file.inGo}`, file]))(
		'%s, materialized, is gofmt clean, holds the solution whole, and imports each of both once',
		(_, { sample, inGo, solution, path }) => {
			const [folder] = materializeSamples(dir, [sample]);
			const text = readFileSync(join(folder!, 'go', 'exercises', inGo), 'utf8');
			const said = gofmtSays(text);
			expect(said.stderr, 'gofmt reads it').toBe('');
			expect(said.stdout, 'gofmt would change it').toBe('');
			const theirs = readGoFile(readFileSync(solution, 'utf8'), solution);
			const marker = readFileSync(path, 'utf8')
				.split('\n')
				.find((line) => line.startsWith(solutionMarker))!;
			expect(text).toContain(renamed(theirs.code.trim(), renamingsOf(marker)));
			const imports = readGoFile(text, inGo).imports.map((spec) => `${spec.name ?? ''} ${spec.path}`);
			const wanted = [...theirs.imports, ...readGoFile(readFileSync(path, 'utf8'), path).imports].map(
				(spec) => `${spec.name ?? ''} ${spec.path}`
			);
			expect([...imports].sort()).toEqual([...new Set(wanted)].sort());
		}
	);
});

describe('spliceGo', () => {
	const solution = [
		'// Package x is the solution.',
		'package x',
		'',
		'import (',
		'\t"fmt"',
		'\t"strings"',
		'',
		'\t"github.com/jackc/pgx/v5"',
		'',
		'\t. "workbook/core"',
		'\t"workbook/handler"',
		')',
		'',
		'// Answer is right.',
		'func Answer() string {',
		'\treturn fmt.Sprint(strings.ToUpper("ok"), pgx.TextFormatCode, Crashed, handler.Webhook{})',
		'}',
		''
	].join('\n');

	it('merges the two import lists into gofmt groups, each import once, named ones kept by their name', () => {
		const sample = [
			'package x',
			'',
			'import "os"',
			'',
			'import (',
			'\tf "fmt" // a second name for fmt',
			'\t"strings"',
			'\t_ "embed"',
			'\t"workbook/channel"',
			')',
			'',
			'func init() { f.Println(os.Args, strings.TrimSpace("")) }',
			'',
			solutionMarker,
			''
		].join('\n');
		const text = spliceGo(sample, solution);
		expect(text).toBe(
			[
				'package x',
				'',
				'import (',
				'\t_ "embed"',
				'\t"fmt"',
				'\tf "fmt"',
				'\t"os"',
				'\t"strings"',
				'',
				'\t"github.com/jackc/pgx/v5"',
				'',
				'\t"workbook/channel"',
				'\t. "workbook/core"',
				'\t"workbook/handler"',
				')',
				'',
				'func init() { f.Println(os.Args, strings.TrimSpace("")) }',
				'',
				'// Answer is right.',
				'func Answer() string {',
				'\treturn fmt.Sprint(strings.ToUpper("ok"), pgx.TextFormatCode, Crashed, handler.Webhook{})',
				'}',
				''
			].join('\n')
		);
		expect(gofmtSays(text).stdout).toBe('');
	});

	it('puts the solution at the marker, with what the sample adds before and after it', () => {
		const text = spliceGo(`package x\n\nvar before = 1\n\n${solutionMarker}\n\nvar after = 2\n`, solution);
		expect(text.indexOf('var before')).toBeLessThan(text.indexOf('func Answer'));
		expect(text.indexOf('func Answer')).toBeLessThan(text.indexOf('var after'));
		expect(gofmtSays(text).stdout).toBe('');
	});

	it('writes one import on one line, and none at all when neither file has any', () => {
		expect(
			spliceGo(`package x\n\n${solutionMarker}\n`, 'package x\n\nimport "os"\n\nvar a = os.Args\n')
		).toBe('package x\n\nimport "os"\n\nvar a = os.Args\n');
		expect(spliceGo(`package x\n\n${solutionMarker}\n`, 'package x\n\nvar a = 1\n')).toBe(
			'package x\n\nvar a = 1\n'
		);
	});

	it('keeps cgo\'s preamble with its import "C", which must stay a declaration of its own', () => {
		const sample = `package x\n\n// int twice(int n) { return 2 * n; }\nimport "C"\n\nvar _ = C.twice(1)\n\n${solutionMarker}\n`;
		const text = spliceGo(sample, solution);
		expect(text).toContain('// int twice(int n) { return 2 * n; }\nimport "C"\n');
		expect(gofmtSays(text).stdout).toBe('');
	});

	it('splices a function the marker line names under its new name, so the sample can wrap it', () => {
		const sample = `package x\n\nfunc Answer() string { return "¡" + answerRight() }\n\n${solutionMarker}, its Answer named answerRight\n`;
		const text = spliceGo(sample, solution);
		expect(text).toContain('func answerRight() string {');
		expect(text.match(/^func Answer\(/gm)).toHaveLength(1);
		expect(gofmtSays(text).stdout).toBe('');
		const method = 'package x\n\ntype T struct{}\n\nfunc (t *T) Handle() int { return 1 }\n';
		expect(spliceGo(`package x\n\n${solutionMarker}, its Handle named handleRight\n`, method)).toContain(
			'func (t *T) handleRight() int { return 1 }'
		);
	});

	it('refuses a renaming of a function the solution does not declare once, or a marker line it cannot read', () => {
		expect(() =>
			spliceGo(`package x\n\n${solutionMarker}, its Handle named other\n`, solution, 'go-odd')
		).toThrow("go-odd: the solution declares func Handle 0 times, so it can't be named other");
		expect(() => spliceGo(`package x\n\n${solutionMarker}, and more\n`, solution, 'go-odd')).toThrow(
			'go-odd: the marker line says ", and more"'
		);
	});

	it('refuses a sample of another package, or one with no marker, naming it', () => {
		expect(() => spliceGo(`package y\n\n${solutionMarker}\n`, solution, 'go-odd')).toThrow(
			'go-odd: package y, but the solution it splices in is package x'
		);
		expect(() => spliceGo('package x\n', solution, 'go-odd')).toThrow(`go-odd: no ${solutionMarker} line`);
	});
});
