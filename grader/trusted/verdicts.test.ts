// The verdicts made from a run's observations (run-exercise.ts's verdictsFrom), where the judge cannot read what
// the code returned: on a given case the judge's own words say why; on a held-out case they are not shown, and
// an answer the judge reads only as it came (not as the report may show it) is said as one that differs.
import type { Exercise } from '#harness/core/manifest.ts';
import { describe, expect, it } from 'vitest';
import type { SandboxLimits, SandboxRun } from '../sandbox/sandbox.ts';
import type { PlannedCheck } from './expect.ts';
import { verdictsFrom, type Observed } from './run-exercise.ts';

// A judge that reads a count, and cannot read anything else.
const judge = (_input: unknown, answer: { count: unknown }, expected: { count: number }) => {
	if (typeof answer.count !== 'number') throw new Error(`count is ${JSON.stringify(answer.count)}`);
	return answer.count === expected.count ? null : `expected ${expected.count}, got ${answer.count}`;
};
const check = (name: string, heldOut: boolean) =>
	({
		name,
		heldOut,
		free: false,
		cases: [{ n: 1 }],
		expected: [{ count: 1 }],
		judge
	}) as unknown as PlannedCheck;

function verdictOn(heldOut: boolean, answer: unknown) {
	const observed: Observed = {
		byCheck: new Map([[0, new Map([[0, { ok: answer }]])]]),
		loadError: null,
		exited: null,
		refused: null,
		done: true,
		tampered: null
	};
	const ran = {
		output: '',
		code: 0,
		signal: null,
		stopped: false,
		flooded: false,
		timedOut: false,
		outOfMemory: false,
		traceFlooded: false,
		started: 0,
		attempt: null
	} as unknown as SandboxRun;
	const [verdict] = verdictsFrom(
		[check(heldOut ? 'held-out' : 'given', heldOut)],
		ran,
		{} as SandboxLimits,
		{ folder: '06-ticket-endpoint' } as Exercise,
		observed
	);
	return verdict!;
}

describe('verdicts on answers the judge cannot read', () => {
	it('on a given case: failed, with why the judge could not read it', () => {
		expect(verdictOn(false, { count: 'many' })).toMatchObject({
			status: 'failed',
			message: 'what your code returned could not be read: count is "many"'
		});
	});
	it("on a held-out case: failed, said as an answer that differs on this input, without the judge's words", () => {
		const verdict = verdictOn(true, { count: 'many' });
		expect(verdict.status).toBe('failed');
		expect(verdict.message).toMatch(
			/\):\nyour code's answer differs from the reference's on this input: \{"n":1\}$/
		);
		expect(verdict.message).not.toContain('count is');
	});
	it('on a held-out case, read as it came but not as shown (its own number hidden): it differs, on this input', () => {
		const verdict = verdictOn(true, { count: 123_456 });
		expect(verdict.status).toBe('failed');
		expect(verdict.message).toMatch(
			/\):\nyour code's answer differs from the reference's on this input: \{"n":1\}$/
		);
		expect(verdict.message).not.toContain('123456');
	});
	it('read, and wrong: the judge says how; read, and right: passed', () => {
		expect(verdictOn(true, { count: 2 }).message).toMatch(/\):\nexpected 1, got 2$/);
		expect(verdictOn(false, { count: 1 })).toMatchObject({ status: 'passed', message: '' });
	});
});
