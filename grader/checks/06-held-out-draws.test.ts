// 06's held-out checks each draw sequences of their own: the crash points and the sequences against the
// reference play the same generator (randomSequences), so with one seed they would play the same inputs twice.
import { describe, expect, it } from 'vitest';
import { canonical } from '#harness/endpoint/contract.ts';
import { casesOf } from '../trusted/probe.ts';
import { crashShare, probe } from './06-ticket-endpoint.held.ts';

const drawn = (what: string) =>
	probe({ seed: 7, checks: 2, runs: 25 })
		.filter((check) => check.name.startsWith(`held-out ${what}, check`))
		.flatMap((check) => casesOf(check).map(canonical));

describe("06's held-out draws", () => {
	it('the crash points and the sequences against the reference share no sequence', () => {
		const crashes = drawn('crash points');
		const sequences = drawn('sequences against the reference');
		// Every crash point of a share of the sequences (crashShare), every answer of all of them.
		expect(crashes).toHaveLength(2 * Math.ceil(25 / crashShare));
		expect(sequences).toHaveLength(50);
		expect(sequences.filter((sequence) => crashes.includes(sequence))).toEqual([]);
	});
});
