import { describe, expect, it } from 'vitest';
import { assertionSaid } from './assertion-words.ts';

describe("an assertion's words on the short report", () => {
	it('drops "// Object.is equality" and says +0 as 0', () => {
		expect(assertionSaid('times finish() was called: expected 1 to be +0 // Object.is equality', '')).toBe(
			'times finish() was called: expected 1 to be 0'
		);
	});
	it('drops the diff of two plain values the message already says', () => {
		const diff = '- Expected\n+ Received\n\n- false\n+ true';
		expect(assertionSaid('two events: expected true to be false // Object.is equality', diff)).toBe(
			'two events: expected true to be false'
		);
	});
	it('keeps the diff of two objects: it shows where they part', () => {
		const diff = '- Expected\n+ Received\n\n  {\n-   "key": "key-1",\n+   "key": "key-2",\n  }';
		expect(assertionSaid('expected { key: "key-2" } to deeply equal { key: "key-1" }', diff)).toBe(
			`expected { key: "key-2" } to deeply equal { key: "key-1" }\n\n${diff}`
		);
	});
	it('leaves a story of the harness as it is', () => {
		const story =
			'Schedule "one-delivery" (One delivery, one ticket): expected created #1, your handler created #2.';
		expect(assertionSaid(story, '')).toBe(story);
	});
});
