import { describe, expect, it } from 'vitest';
import { counted, theyDiffer } from './words.ts';

describe('the words agree with their numbers', () => {
	it('counts one of a thing in the singular, and any other number in the plural', () => {
		expect([0, 1, 2].map((n) => counted(n, 'ticket'))).toEqual(['0 tickets', '1 ticket', '2 tickets']);
	});
	it('says which parts of the state differ, the verb agreeing with them', () => {
		expect(theyDiffer(['tickets'])).toBe('the tickets differ');
		expect(theyDiffer(['outbox'])).toBe('the outbox differs');
		expect(theyDiffer(['tickets', 'outbox'])).toBe('the tickets and outbox differ');
	});
});
