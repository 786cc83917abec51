// 06's crash points reach the grader with the tables after a crash or a retry left out where they repeat
// others, and what a request's crashes share sent with its first (crash-points.ts, sentCrash): the judge must
// read them exactly as it reads every table sent (Go's observer sends those), on right answers and wrong.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	exploreCrashPoints,
	receivedCrashes,
	sentCrashes,
	type RecordedCrash
} from '#harness/endpoint/crash-points.ts';
import { MemoryStore } from '#harness/endpoint/memory-store.ts';
import { randomSequences } from '#harness/endpoint/sequences.ts';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { judgeCrashes } from './06-ticket-endpoint.held.ts';

const sequences = fc.sample(randomSequences, { seed: 11, numRuns: 12 });
const copy = async (store: unknown) => (store as MemoryStore).copy();
// Through JSON, as the channel carries them.
const sent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

async function recorded(sequence: (typeof sequences)[number]) {
	const flat: RecordedCrash[] = [];
	await exploreCrashPoints(solution, sequence, new MemoryStore(), copy, undefined, (crash) =>
		flat.push(crash)
	);
	return flat;
}

const compact = sentCrashes;

// What a wrong route could leave: a ticket more after the crash, or after the retry.
const extraTicket = { id: 99, tenant: 'acme', subject: 'made twice' };
const planted = (flat: RecordedCrash[], where: 'afterCrash' | 'after'): RecordedCrash[] =>
	flat.map((crash, i) =>
		i === flat.length - 1
			? {
					...crash,
					judged: {
						...crash.judged,
						[where]: {
							...crash.judged[where],
							tickets: [...crash.judged[where].tickets, extraTicket]
						}
					}
				}
			: crash
	);

describe("06's crash points, sent compact", () => {
	let explored: RecordedCrash[][] = [];
	beforeAll(async () => {
		explored = [];
		for (const sequence of sequences) explored.push(await recorded(sequence));
	}, 60_000);

	it('come back as the same crashes, one by one', () => {
		for (const flat of explored) {
			const again = receivedCrashes(sent(compact(flat)));
			const withoutRetrySteps = flat.map(({ step, judged }) => ({
				step,
				judged: { ...judged, retry: { ...judged.retry, steps: [] } }
			}));
			expect(again).toEqual(sent(withoutRetrySteps));
		}
	});

	it("send a request's own tables and reference with its first crash only, and refuse a crash that leaves them out first", () => {
		for (const flat of explored) {
			const sentNow = compact(flat);
			for (const [i, crash] of sentNow.entries()) {
				const first = flat[i - 1]?.step !== crash.step;
				expect(crash.judged.reference === null, `crash ${i + 1}: its reference left out`).toBe(!first);
				expect(crash.judged.before === null).toBe(!first);
			}
			const later = sentNow.findIndex((crash) => crash.judged.reference === null);
			if (later >= 0)
				expect(() => receivedCrashes(sent(sentNow.slice(later)))).toThrow(
					/leaves out what no crash before it sent/
				);
		}
	});

	it('are judged as the crashes one by one, a planted extra ticket included', () => {
		let caught = 0;
		for (const [i, sequence] of sequences.entries()) {
			const flat = explored[i]!;
			if (flat.length === 0) continue;
			for (const crashes of [flat, planted(flat, 'afterCrash'), planted(flat, 'after')]) {
				const one = judgeCrashes(sequence, sent({ crashes }));
				expect(judgeCrashes(sequence, sent({ crashes: compact(crashes) }))).toBe(one);
				if (one) caught++;
			}
		}
		// The planted tickets are seen: the comparison is not between two silences.
		expect(caught).toBeGreaterThan(sequences.length / 2);
	});
});
