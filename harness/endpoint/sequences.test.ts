// The random sequences draw what the model's retries play: the request before, its fields reversed, now or
// exactly when its retention ends. The crash points, the properties and the grader all draw from them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Call, Pause } from './calls.ts';
import { again, randomSequences } from './sequences.ts';

const ticket = (json: object): Call => ({ do: 'send', route: 'tickets', key: 'k-1', json, stepFails: true });
const first = ticket({ subject: 'Printer on fire', priority: 'high' });
const retry: Call = {
	do: 'send',
	route: 'tickets',
	key: 'k-1',
	json: { priority: 'high', subject: 'Printer on fire' }
};

describe('again: a retry of the request before it', () => {
	it.each([
		['now', [first], false, [retry]],
		['at the retention, from the request', [first], true, [{ do: 'wait', minutes: 120 }, retry]],
		[
			'at the retention, less the wait since',
			[first, { do: 'wait', minutes: 90 }],
			true,
			[{ do: 'wait', minutes: 30 }, retry]
		],
		['once the retention is over, at once', [first, { do: 'wait', minutes: 120 }], true, [retry]],
		[
			'at the retention of the key, from its first request',
			[first, { do: 'wait', minutes: 60 }, retry],
			true,
			[
				{ do: 'wait', minutes: 60 },
				{ ...retry, json: { subject: 'Printer on fire', priority: 'high' } }
			]
		],
		[
			'at the retention of the key, from its first request since it expired',
			[first, { do: 'wait', minutes: 130 }, first, { do: 'wait', minutes: 30 }],
			true,
			[{ do: 'wait', minutes: 90 }, retry]
		],
		['nothing, before any request', [{ do: 'wait', minutes: 5 }], true, []]
	] as [string, (Call | Pause)[], boolean, (Call | Pause)[]][])('%s', (_, steps, atRetention, added) => {
		expect(again(steps, 2, atRetention)).toEqual(added);
	});
});

describe('randomSequences', () => {
	const drawn = fc.sample(randomSequences, { seed: 606, numRuns: 200 });
	const retries = drawn.flatMap(({ retentionHours, steps }) =>
		steps.flatMap((step, i) => {
			const before = steps.slice(0, i).findLastIndex((s) => s.do === 'send');
			if (step.do !== 'send' || before < 0) return [];
			const sent = steps[before] as Call;
			const reversed = JSON.stringify(Object.entries(sent.json as object).reverse());
			if (sent.key !== step.key || JSON.stringify(Object.entries(step.json as object)) !== reversed)
				return [];
			const waited = steps
				.slice(before + 1, i)
				.reduce((sum, s) => sum + (s.do === 'wait' ? s.minutes : 0), 0);
			return [waited === retentionHours * 60 ? 'at the retention' : waited === 0 ? 'now' : 'later'];
		})
	);
	it('retry the request before, its fields reversed, now and exactly at its retention', () => {
		expect(retries).toContain('now');
		expect(retries).toContain('at the retention');
	});
});
