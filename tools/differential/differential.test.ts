import { describe, expect, it } from 'vitest';
import { generateCases } from './cases.ts';
import { compareAnswers, firstDifference, scheduleSources } from './differential.ts';
import { playTs } from './play-ts.ts';

const few = { identity: 20, handler: 20, endpoint: 20, storage: 20, journey: 20, schedule: 20 };

describe('the differential check', () => {
	const sources = scheduleSources();
	const { cases } = generateCases(7, sources, few);
	const ts = playTs(cases);

	it('one seed makes the same cases every time, and another seed others', () => {
		expect(generateCases(7, sources, few).cases).toEqual(cases);
		expect(generateCases(8, sources, few).cases).not.toEqual(cases);
	});

	it('answers that agree pass, whatever the order of their fields or the spacing of a stored text', () => {
		const reordered = ts.map((answer) => JSON.parse(JSON.stringify(answer)) as unknown);
		const storage = cases.findIndex((c) => c.kind === 'storage');
		const answer = reordered[storage] as { contents: Record<string, string> };
		for (const [name, text] of Object.entries(answer.contents)) {
			try {
				answer.contents[name] = JSON.stringify(JSON.parse(text), null, 2);
			} catch {
				// not JSON: left as it is
			}
		}
		expect(compareAnswers(cases, ts, reordered, 7)).toEqual([]);
	});

	it('a planted drift fails, with the case, both answers, the field and the seed', () => {
		const endpoint = cases.findIndex((c) => c.kind === 'endpoint');
		const drifted = ts.map((answer, i) => {
			if (i !== endpoint) return answer;
			const copy = structuredClone(answer) as { answers: unknown[] };
			copy.answers[0] = 'a different answer';
			return copy;
		});
		const problems = compareAnswers(cases, ts, drifted, 7);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(`case ${endpoint + 1}, endpoint: TypeScript and Go differ at answers[0]`);
		expect(problems[0]).toContain('seed 7');
		expect(problems[0]).toContain('--seed 7');
		expect(problems[0]).toContain(`case:       ${JSON.stringify(cases[endpoint])}`);
		expect(problems[0]).toContain('Go:         {"answers":["a different answer"');
	});

	it("a loader's words may differ, its verdict may not", () => {
		expect(firstDifference({ accepted: false }, { accepted: true })).toBe('accepted');
		const schedule = cases.findIndex((c) => c.kind === 'schedule');
		const reworded = ts.map((answer, i) =>
			i === schedule ? { ...(answer as object), said: 'other words' } : answer
		);
		expect(compareAnswers(cases, ts, reworded, 7)).toEqual([]);
	});

	it('plays every kind of case, and a schedule case changes a real file', () => {
		expect(new Set(cases.map((c) => c.kind))).toEqual(
			new Set(['identity', 'handler', 'endpoint', 'storage', 'journey', 'schedule'])
		);
		expect(ts).toHaveLength(cases.length);
		const verdicts = cases.flatMap((c, i) =>
			c.kind === 'schedule' ? [(ts[i] as { accepted: boolean }).accepted] : []
		);
		expect(verdicts, 'some changed schedules load and some are refused').toContain(true);
		expect(verdicts).toContain(false);
	});
});
