// What an observer is: the one piece of per-exercise code that runs inside the sandbox, next to the learner's.
//
//   export const observers: Observers = {
//   	schedule: ({ 'handler.ts': code }, schedule) => playHandler(schedule, new code.TicketHandler())
//   	// a third argument, the run's context: run.postgres, where its database is (null if it has none)
//   };
//
// An observer gets the learner's modules (by file name, as the manifest lists them) and one input the grader
// handed in as data, calls the learner's code on it, and returns what the code did as plain JSON: answers,
// rows, traces. It never judges. The grader runs the same observer on the reference solution, outside the
// sandbox, and compares (grader/checks/<folder>.held.ts says how). Nothing here is secret: the sandbox holds only
// this folder of the grader and grader/channel, never the held-out files, the reference or the expectations.
import { types } from 'node:util';
import type { RunContext } from '../channel/job.ts';
import type { SaidError } from '../channel/observations.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Code = Record<string, any>;
// run: what a run has besides its inputs (grader/channel/job.ts), such as where its database is.
export type Observer = (code: Code, input: any, run: RunContext) => unknown;
export type Observers = Record<string, Observer>;

const isProxy = types.isProxy;
const { getOwnPropertyDescriptor, getPrototypeOf } = Object;
const { apply } = Reflect;
// The built-in errors' prototypes, whose getters are node's own (--frozen-intrinsics makes `name` one of them).
const builtIn = new Set<object>(
	[Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError].map(
		(type) => type.prototype
	)
);

// A string the error holds, found on it or its prototypes the way a property read would, but never through a
// getter or a Proxy of the learner's ('' where there is none).
function dataOf(error: object, key: string): string {
	for (let at: object | null = error; at && !isProxy(at); at = getPrototypeOf(at)) {
		const property = getOwnPropertyDescriptor(at, key);
		if (!property) continue;
		const value =
			'value' in property
				? property.value
				: builtIn.has(at) && property.get
					? apply(property.get, error, [])
					: '';
		return typeof value === 'string' ? value : '';
	}
	return '';
}

// An error as data: a judge outside the sandbox can only read its name and message.
export function saidError(error: unknown): SaidError {
	if (error && typeof error === 'object' && !isProxy(error) && types.isNativeError(error))
		return { name: dataOf(error, 'name'), message: dataOf(error, 'message') };
	if (error === null || typeof error !== 'object') return { name: 'thrown', message: String(error) };
	return { name: 'thrown', message: typeof error === 'function' ? 'a function' : 'an object' };
}
