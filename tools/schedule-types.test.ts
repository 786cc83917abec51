// Each kind's schedule type, written by hand in the lesson's own types (Webhook, FormState, OutboxRow…), holds
// the same fields as its JSON Schema, both ways: the same names, the same ones optional, the same values.
// The schema is the one home of a field; Go reads the same file (go/schedules), and this keeps TypeScript's
// type to it. A kind is found by its loader's call (schedule-kinds.ts), so a new kind needs no line here. tsc
// compares the facts (schedule-facts.ts): the schema's are written into a scratch file as a union of strings,
// beside the type's, and each difference is an error that names the field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workbookRoot } from '#harness/core/manifest.ts';
import { bin, run } from '../lib/run.ts';
import { readSchema, schemaFacts } from './schedule-facts.ts';
import { scheduleKinds, type ScheduleKind as Kind } from './schedule-kinds.ts';
import { schemaKinds } from './validators.ts';

// One scratch file: for each kind, what only the type has and what only the schema has, each of which must
// be nothing. A difference reads: Type '"agree"' is not assignable to type '"steps[].fault: \"held\""'.
function scratchFile(all: Kind[], scratch: string): string {
	const facts = relative(scratch, join(workbookRoot, 'tools/schedule-facts.ts'));
	const lines = [`import type { Facts } from '${facts}';`];
	all.forEach(({ kind, type, file }, i) => {
		const schema = schemaFacts(readSchema(kind))
			.map((fact) => JSON.stringify(fact))
			.join(' | ');
		lines.push(
			`import type { ${type} as T${i} } from '${relative(scratch, file)}';`,
			`type S${i} = ${schema};`,
			`export const typeOnly${i}: [Exclude<Facts<T${i}>, S${i}>] extends [never] ? 'agree' : Exclude<Facts<T${i}>, S${i}> = 'agree';`,
			`export const schemaOnly${i}: [Exclude<S${i}, Facts<T${i}>>] extends [never] ? 'agree' : Exclude<S${i}, Facts<T${i}>> = 'agree';`
		);
	});
	return lines.join('\n') + '\n';
}

describe('the schedule types and their schemas', () => {
	it('finds every kind that has a schema, by its loader', () => {
		expect(scheduleKinds().map((k) => k.kind)).toEqual(schemaKinds());
	});

	// tsc takes a few seconds, more on a busy machine.
	it(
		"every type has exactly its schema's fields, optional where the schema says, with the same values",
		{ timeout: 60_000 },
		async () => {
			const all = scheduleKinds();
			// Inside node_modules/, so the scratch file finds the workbook's types as the workbook's own files do.
			const scratch = mkdtempSync(join(workbookRoot, 'node_modules', '.schedule-types-'));
			try {
				const check = scratchFile(all, scratch);
				writeFileSync(join(scratch, 'check.ts'), check);
				const config = { extends: join(workbookRoot, 'tsconfig.json'), files: ['check.ts'] };
				writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(config));
				const ran = await run(bin('tsc'), ['--noEmit', '--noErrorTruncation', '-p', scratch]);
				expect(differences(ran.output, check, all)).toEqual([]);
				expect(ran.code, ran.output).toBe(0);
			} finally {
				rmSync(scratch, { recursive: true, force: true });
			}
		}
	);
});

// tsc writes each fact as a TypeScript string literal, quotes and escapes included.
const unquoted = (literal: string) => {
	try {
		return JSON.parse(literal) as string;
	} catch {
		return literal;
	}
};

// tsc's lines, each read as the kind and the side a difference is on; any other line as it is.
function differences(output: string, check: string, all: Kind[]): string[] {
	const lines = check.split('\n');
	return output
		.split('\n')
		.filter((said) => said.trim() !== '')
		.map((said) => {
			const at = /check\.ts\((\d+),\d+\)/.exec(said);
			const source = at ? (lines[Number(at[1]) - 1] ?? '') : '';
			const which = /export const (typeOnly|schemaOnly)(\d+)/.exec(source);
			const facts = /is not assignable to type '(.*)'\.?$/.exec(said)?.[1];
			if (!which || !facts) return said;
			const { kind, type, file } = all[Number(which[2])]!;
			const [has, lacks] =
				which[1] === 'typeOnly'
					? [`${type} (${relative(workbookRoot, file)})`, `schedules/schema/${kind}.schema.json`]
					: [`schedules/schema/${kind}.schema.json`, `${type} (${relative(workbookRoot, file)})`];
			return `${has} has what ${lacks} does not: ${facts.split(' | ').map(unquoted).join('; ')}`;
		});
}
