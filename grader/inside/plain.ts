// What the learner's code returned, as plain data the grader can judge, read with the runtime's own intrinsics.
//
//   plain({ kind: 'created', ticketId: 1 })      // a copy: null-prototype objects, arrays, strings, numbers, booleans
//   plain({ toJSON: () => true })                // {}: toJSON is never called
//   plain(new Proxy({}, {}))                     // throws NotTheContract: a Proxy is not read at all
//
// The functions it uses are taken when this module loads, which main.ts does before any learner file, so
// replacing a global or a built-in later changes nothing here. It reads own enumerable data properties only, the
// ones JSON.stringify would keep, without calling anything of the value's: no toJSON, no getter (an accessor is
// left out), no Proxy trap. The expectations go through the same copy (trusted/expect.ts), so an honest answer
// reads the same on both sides of the wall.
import { types } from 'node:util';

const { isPromise, isProxy } = types;
const { create, defineProperty, getOwnPropertyDescriptor, getPrototypeOf } = Object;
const { ownKeys } = Reflect;
const { isArray } = Array;
const { isFinite } = Number;
const maxDepth = 256;

// A value outside what the exercise's contract can return: the observer says so as the run's answer.
export class NotTheContract extends Error {
	override name = 'NotTheContract';
}

// How a value is said in a message: "an object", "a string", "undefined", …
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'undefined';
	if (isArray(value)) return 'an array';
	const type = typeof value;
	return type === 'object' ? 'an object' : `a${/^[aeiou]/.test(type) ? 'n' : ''} ${type}`;
}

function copy(value: unknown, depth: number, seen: Set<object>): unknown {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number') return isFinite(value) ? value : null;
	if (typeof value !== 'object') return undefined;
	if (isProxy(value)) throw new NotTheContract('your code returned a Proxy, which the grader does not read');
	if (depth > maxDepth) throw new NotTheContract(`your code returned data nested deeper than ${maxDepth}`);
	if (seen.has(value)) throw new NotTheContract('your code returned data that contains itself');
	seen.add(value);
	const own = (key: string | symbol) => getOwnPropertyDescriptor(value, key);
	let result: unknown;
	if (isArray(value)) {
		const length = own('length')?.value as number;
		const items: unknown[] = [];
		for (let i = 0; i < length; i++) {
			const item = own(String(i));
			const copied = item && 'value' in item ? copy(item.value, depth + 1, seen) : null;
			items[i] = copied === undefined ? null : copied;
		}
		result = items;
	} else {
		const object = create(null) as Record<string, unknown>;
		for (const key of ownKeys(value)) {
			const property = typeof key === 'string' ? own(key) : undefined;
			if (!property?.enumerable || !('value' in property)) continue;
			const copied = copy(property.value, depth + 1, seen);
			if (copied !== undefined)
				defineProperty(object, key, { value: copied, enumerable: true, writable: true, configurable: true });
		}
		result = object;
	}
	seen.delete(value);
	return result;
}

export function plain(value: unknown): unknown {
	const copied = copy(value, 0, new Set());
	return copied === undefined ? null : copied;
}

// What an observer returned, before main.ts awaits it: a promise of node's own is the observer's (an async
// observer's answer), and anything else with a `then` (a thenable of the learner's, a Proxy, a getter) would
// have its code decide what is awaited, so it is not taken. Looked up by descriptors, so nothing is called.
export function awaitable(value: unknown): unknown {
	if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
	if (isPromise(value)) return value;
	if (isProxy(value)) throw new NotTheContract('your code returned a Proxy, which the grader does not read');
	for (let at: object | null = value; at; at = getPrototypeOf(at)) {
		if (isProxy(at)) throw new NotTheContract('your code returned a Proxy, which the grader does not read');
		if (getOwnPropertyDescriptor(at, 'then'))
			throw new NotTheContract(`your code returned ${kindOf(value)} with a then, not a value`);
	}
	return value;
}

// A value the contract promises as it is (not a promise of it): an async function's answer is not taken for
// its outcome, as the workbook's tests do not take it.
export function settled(value: unknown, what: string): unknown {
	if (isPromise(value)) throw new NotTheContract(`${what} answered a Promise, not a value: is it async?`);
	return awaitable(value);
}

// The contract's type, checked: a boolean is a boolean, whatever an object of the learner's says of itself.
export function mustBe(type: 'boolean' | 'string' | 'number', value: unknown, what: string): unknown {
	if (typeof value !== type) throw new NotTheContract(`${what} answered ${kindOf(value)}, not a ${type}`);
	return value;
}
