// A schedule's fields as facts, one string per value a field can hold: "deliveries[].fault: \"none\"",
// "order?: number", "steps[].shows{}.status: null". The same facts come from a JSON Schema (schemaFacts, at
// run time) and from a TypeScript type (Facts<T>, at compile time), so the two can be compared both ways:
// a field only one side has, a field optional on one side only, a value only one side allows.
//
//   schemaFacts(readSchema('handler'))   // ['name: string', 'order?: number', 'deliveries[].fault: "none"', …]
//   type Mine = Facts<HandlerSchedule>    // the same strings, as a union type
//
// How a path reads: "a.b" a field, "a?" one that may be left out, "a[]" an array's items, "a{}" the values of
// an object keyed by any name. A union of objects (a oneOf, or a TypeScript union such as FormState) reads as
// one object: a field is required when every member requires it. Integers are numbers, and a boolean is
// "true" and "false".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbookRoot } from '#harness/core/manifest.ts';

export type Schema = {
	$ref?: string;
	type?: string | string[];
	enum?: unknown[];
	const?: unknown;
	properties?: Record<string, Schema>;
	required?: string[];
	additionalProperties?: boolean | Schema;
	items?: Schema;
	oneOf?: Schema[];
	definitions?: Record<string, Schema>;
};

export const readSchema = (kind: string): Schema =>
	JSON.parse(
		readFileSync(join(workbookRoot, 'schedules', 'schema', `${kind}.schema.json`), 'utf8')
	) as Schema;

const path = (at: string, field: string, required: boolean) =>
	`${at ? `${at}.` : ''}${field}${required ? '' : '?'}`;

export function schemaFacts(root: Schema): string[] {
	const resolve = (schema: Schema): Schema =>
		schema.$ref ? resolve(root.definitions![schema.$ref.replace('#/definitions/', '')]!) : schema;

	function facts(given: Schema, at: string): string[] {
		const schema = resolve(given);
		if (schema.oneOf) return objectFacts(schema.oneOf.map(resolve), at);
		if (schema.const !== undefined) return [`${at}: ${JSON.stringify(schema.const)}`];
		if (schema.enum) return schema.enum.map((value) => `${at}: ${JSON.stringify(value)}`);
		return [schema.type ?? 'unknown'].flat().flatMap((type) => {
			if (type === 'array') return facts(schema.items ?? {}, `${at}[]`);
			if (type === 'object') return objectFacts([schema], at);
			if (type === 'boolean') return [`${at}: true`, `${at}: false`];
			return [`${at}: ${type === 'integer' ? 'number' : type}`];
		});
	}

	function objectFacts(members: Schema[], at: string): string[] {
		const fields = [...new Set(members.flatMap((member) => Object.keys(member.properties ?? {})))];
		const named = fields
			.filter((field) => !(at === '' && field === '$schema')) // the editor's hint, not the schedule's
			.flatMap((field) => {
				const required = members.every((member) => member.required?.includes(field));
				return members.flatMap((member) => {
					const value = member.properties?.[field];
					return value ? facts(value, path(at, field, required)) : [];
				});
			});
		const anyName = members.flatMap(({ additionalProperties: values }) =>
			typeof values === 'object' ? facts(values, `${at}{}`) : []
		);
		return [...named, ...anyName];
	}

	return [...new Set(facts(root, ''))].sort();
}

// The same facts of a TypeScript type, as a union of strings.
export type Facts<T, At extends string = ''> = unknown extends T
	? `${At}: unknown`
	: | LeafFacts<Exclude<T, object>, At>
		| ArrayFacts<Extract<T, readonly unknown[]>, At>
		| ObjectFacts<Exclude<Extract<T, object>, readonly unknown[]>, At>;

type Leaf<T> = T extends string
	? string extends T
		? 'string'
		: `"${T}"`
	: T extends number
		? 'number'
		: T extends boolean
			? `${T}`
			: T extends null
				? 'null'
				: 'unknown';
type LeafFacts<T, At extends string> = T extends unknown ? `${At}: ${Leaf<T>}` : never;

type ArrayFacts<T, At extends string> = T extends readonly (infer Item)[] ? Facts<Item, `${At}[]`> : never;

// Every member's fields; a field is required when every member has it, and not as optional.
type Fields<T> = T extends unknown ? keyof T & string : never;
type ValueOf<T, K extends string> = T extends unknown
	? K extends keyof T
		? Exclude<T[K], undefined>
		: never
	: never;
type Optional<T, K extends string> = T extends unknown
	? K extends keyof T
		? {} extends Pick<T, K>
			? true
			: false
		: true
	: never;
type Path<
	At extends string,
	K extends string,
	Maybe
> = `${At extends '' ? '' : `${At}.`}${K}${true extends Maybe ? '?' : ''}`;
type ObjectFacts<T, At extends string> = [T] extends [never]
	? never
	: string extends keyof T
		? Facts<T[keyof T], `${At}{}`>
		: { [K in Fields<T>]-?: Facts<ValueOf<T, K>, Path<At, K, Optional<T, K>>> }[Fields<T>];
