// 06's held-out checks each draw sequences of their own: the crash points and the sequences against the
// reference play the same generator (randomSequences), so with one seed they would play the same inputs twice.
// And within the grader's counts those draws meet the inputs two named mistakes slipped past before: a retry
// of the same body exactly at its key's retention with a replay in between (retention-renewed-by-each-replay),
// and another body under a key still kept, by a field added, removed or changed, deep inside too
// (fingerprint-of-the-subject-only, fingerprint-ignores-nested-fields).
import { describe, expect, it } from 'vitest';
import type { Call, Sequence } from '#harness/endpoint/calls.ts';
import { canonical } from '#harness/endpoint/contract.ts';
import { casesOf } from '../trusted/probe.ts';
import { crashShare, probe } from './06-ticket-endpoint.held.ts';

const drawn = (what: string, settings = { seed: 7, checks: 2, runs: 25 }) =>
	probe(settings)
		.filter((check) => check.name.startsWith(`held-out ${what}, check`))
		.flatMap((check) => casesOf(check) as Sequence[]);

// What each ticket request of a sequence meets under its key: the retention's end, after a replay, or a key
// still kept with another body (and how it differs from the body the key was first saved with).
function met({ remember, retentionHours, steps }: Sequence): Set<string> {
	const retention = retentionHours * 60;
	const keys = new Map<string, { at: number; body: Record<string, unknown>; replayed: boolean }>();
	const found = new Set<string>();
	let now = 0;
	for (const step of steps) {
		if (step.do === 'wait') now += step.minutes;
		if (step.do !== 'send' || step.route !== 'tickets') continue;
		const body = step.json as Record<string, unknown>;
		const first = keys.get(step.key!);
		const same = first && canonical(first.body) === canonical(body);
		if (first && now - first.at < retention) {
			if (same) first.replayed = true;
			else if (first.body.subject === body.subject) found.add(anotherBody(first.body, body));
			continue;
		}
		if (first && same && first.replayed && now - first.at === retention)
			found.add('the same body at the retention, after a replay');
		if (!(step as Call).stepFails || remember === 'everything')
			keys.set(step.key!, { at: now, body, replayed: false });
	}
	return found;
}

function anotherBody(first: Record<string, unknown>, body: Record<string, unknown>): string {
	const names = (json: object) => Object.keys(json).sort().join();
	if (names(first) !== names(body)) return 'another body: a field added or removed';
	const nested = Object.keys(body).some(
		(name) =>
			typeof body[name] === 'object' &&
			!Array.isArray(body[name]) &&
			canonical(body[name]) !== canonical(first[name])
	);
	return nested ? 'another body: a field changed deep inside' : 'another body: a field changed';
}

describe("06's held-out draws", () => {
	it('the crash points and the sequences against the reference share no sequence', () => {
		const crashes = drawn('crash points').map(canonical);
		const sequences = drawn('sequences against the reference').map(canonical);
		// Every crash point of a share of the sequences (crashShare), every answer of all of them.
		expect(crashes).toHaveLength(2 * Math.ceil(25 / crashShare));
		expect(sequences).toHaveLength(50);
		expect(sequences.filter((sequence) => crashes.includes(sequence))).toEqual([]);
	});

	const classes = (settings: { seed: number; checks: number; runs: number }) =>
		[...new Set(drawn('sequences against the reference', settings).flatMap((s) => [...met(s)]))].sort();

	it('at 2 checks of 25 (the class test of the wrong solutions), the sequences against the reference meet the retention after a replay, and another body every way', () => {
		expect(classes({ seed: 7, checks: 2, runs: 25 })).toEqual([
			'another body: a field added or removed',
			'another body: a field changed',
			'another body: a field changed deep inside',
			'the same body at the retention, after a replay'
		]);
	});

	it('at 1 check of 8, they still meet the retention after a replay, and another body', () => {
		const found = classes({ seed: 7, checks: 1, runs: 8 });
		expect(found).toContain('the same body at the retention, after a replay');
		expect(found.filter((what) => what.startsWith('another body'))).not.toEqual([]);
	});
});
