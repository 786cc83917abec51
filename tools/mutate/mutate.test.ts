import { describe, expect, it } from 'vitest';
import { readEquivalents, summary, type Equivalent, type Mutant, type Report } from './mutate.ts';

const source = "handle(event, fault = 'none') {\n\treturn fault === 'after-commit';\n}";
const mutant = (
	status: string,
	line: number,
	column: number,
	length: number,
	replacement = '""'
): Mutant => ({
	mutatorName: 'StringLiteral',
	replacement,
	status,
	location: { start: { line, column }, end: { line, column: column + length } }
});
const report = (mutants: Mutant[]): Report => ({
	files: { 'solutions/01-first-handler/handler.ts': { source, mutants } }
});
const none: Equivalent = {
	file: 'solutions/01-first-handler/handler.ts',
	mutator: 'StringLiteral',
	original: "'none'",
	replacement: '""',
	why: 'only compared with the crash faults'
};

describe('npm run mutate: the scores', () => {
	const killedNine = Array.from({ length: 9 }, () => mutant('Killed', 2, 19, 14));

	it('scores killed mutants as detected, survivors and uncovered ones as not', () => {
		const { lines } = summary(report([...killedNine, mutant('NoCoverage', 2, 19, 14)]), []);
		expect(lines[0]).toMatch(/01-first-handler: 90\.0% \(9 of 10 mutants killed/);
	});
	it('a time-out is not a kill: it is left out of the score and named, and fails nothing', () => {
		const { lines, ok } = summary(report([...killedNine, mutant('Timeout', 2, 19, 14)]), []);
		expect(ok).toBe(true);
		expect(lines[0]).toMatch(
			/01-first-handler: 100\.0% \(9 of 9 mutants killed, 0 listed as equivalent, 1 timed out/
		);
		expect(lines.join('\n')).toMatch(
			/timed out \(neither killed nor survived\): solutions\/01-first-handler\/handler.ts:2/
		);
	});
	it('an equivalent mutant that times out on a busy machine is not stale', () => {
		const { lines, ok } = summary(report([...killedNine, mutant('Timeout', 1, 23, 6)]), [none]);
		expect(lines.join('\n')).not.toMatch(/no longer survives/);
		expect(ok).toBe(true);
	});
	it('a time-out does not lift an exercise over the target', () => {
		const survivor = mutant('Survived', 2, 19, 14);
		const timedOut = Array.from({ length: 5 }, () => mutant('Timeout', 2, 19, 14));
		const { lines, ok } = summary(report([...killedNine.slice(1), survivor, ...timedOut]), [none]);
		expect(ok).toBe(false);
		expect(lines[0]).toMatch(/^✘ 01-first-handler: 88\.9%/);
	});
	it('passes a survivor listed as equivalent, and names one that is not', () => {
		const survivor = mutant('Survived', 1, 23, 6);
		expect(summary(report([...killedNine, survivor]), [none]).ok).toBe(true);
		const { lines, ok } = summary(report([...killedNine, survivor]), []);
		expect(ok).toBe(false);
		expect(lines.join('\n')).toMatch(
			/not listed as equivalent: solutions\/01-first-handler\/handler.ts:1 StringLiteral: "'none'"/
		);
	});
	it('leaves equivalent mutants out of the score, and says the score counting them too', () => {
		const survivors = [mutant('Survived', 1, 23, 6), mutant('Survived', 1, 23, 6)];
		const { lines, ok } = summary(report([...killedNine.slice(2), ...survivors]), [none]);
		expect(ok).toBe(true);
		expect(lines[0]).toMatch(
			/^✔ 01-first-handler: 100\.0% \(7 of 9 mutants killed, 2 listed as equivalent; 77\.8% counting those\)/
		);
	});
	it('fails an exercise under the target', () => {
		const survivors = [mutant('Survived', 2, 19, 14), mutant('Survived', 1, 23, 6)];
		const { lines, ok } = summary(report([...killedNine.slice(1), ...survivors]), [none]);
		expect(ok).toBe(false);
		expect(lines[0]).toMatch(/^✘ 01-first-handler: 88\.9%/);
	});
	it('asks to remove an equivalent entry that no longer survives', () => {
		const { lines, ok } = summary(report(killedNine), [none]);
		expect(ok).toBe(false);
		expect(lines.join('\n')).toMatch(/no longer survives \(remove it\)/);
	});
	it('reads the list kept beside the config, every entry with its reason', () => {
		expect(readEquivalents().every((entry) => entry.why.length > 0)).toBe(true);
	});
});
