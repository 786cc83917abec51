// The random sequences draw what the model's retries play: the request before, its fields reversed or its body
// changed, now, exactly when its retention ends, or twice (a replay part way, then at that end). The crash
// points, the properties and the grader all draw from them. go/endpoint/sequences_test.go has the same tables.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Call, Pause } from './calls.ts';
import { again, changed, randomSequences, type Again } from './sequences.ts';

const ticket = (json: object): Call => ({ do: 'send', route: 'tickets', key: 'k-1', json, stepFails: true });
const first = ticket({ subject: 'Printer on fire', priority: 'high' });
const retry: Call = {
	do: 'send',
	route: 'tickets',
	key: 'k-1',
	json: { priority: 'high', subject: 'Printer on fire' }
};
const other: Call = { ...retry, json: { subject: 'Printer on fire' } };
const wait = (minutes: number): Pause => ({ do: 'wait', minutes });
const same = (at: Again['at']): Again => ({ do: 'again', at, change: null, fails: false });
const everything = { remember: 'everything' as const, retentionHours: 2 };

describe('again: a retry of the request before it', () => {
	it.each([
		['now', [first], same('now'), [retry]],
		['at the retention, from the request', [first], same('at the retention'), [wait(120), retry]],
		['at the retention, less the wait since', [first, wait(90)], same('at the retention'), [wait(30), retry]],
		['once the retention is over, at once', [first, wait(120)], same('at the retention'), [retry]],
		[
			'at the retention of the key, from its first request',
			[first, wait(60), retry],
			same('at the retention'),
			[wait(60), { ...retry, json: { subject: 'Printer on fire', priority: 'high' } }]
		],
		[
			'at the retention of the key, from its first request since it expired',
			[first, wait(130), first, wait(30)],
			same('at the retention'),
			[wait(90), retry]
		],
		[
			'twice: a replay half way, then at the retention',
			[first],
			same('twice'),
			[wait(60), retry, wait(60), retry]
		],
		[
			'twice with another body: a replay and the other body half way, the other body at the retention',
			[first, wait(20)],
			{ do: 'again', at: 'twice', change: 0, fails: false },
			[wait(50), retry, other, wait(50), other]
		],
		['twice, with no time left: at once', [first, wait(119)], same('twice'), [wait(1), retry]],
		['another body, now', [first], { do: 'again', at: 'now', change: 0, fails: false }, [other]],
		[
			'at the retention, its insert failing again',
			[first],
			{ ...same('at the retention'), fails: true },
			[wait(120), { ...retry, stepFails: true }]
		],
		['nothing, before any request', [wait(5)], same('at the retention'), []]
	] as [string, (Call | Pause)[], Again, (Call | Pause)[]][])('%s', (_, steps, draw, added) => {
		expect(again(steps, everything, draw)).toEqual(added);
	});

	it('counts from the first request the server remembers: a failed insert is forgotten under "successes"', () => {
		const sequence = [first, wait(30), { ...first, stepFails: false }];
		const successes = { remember: 'successes' as const, retentionHours: 2 };
		expect(again(sequence, successes, same('at the retention'))).toEqual([wait(120), retry]);
		expect(again(sequence, everything, same('at the retention'))).toEqual([wait(90), retry]);
	});
});

describe('changed: another body under the same key, or another subject for the same event', () => {
	const subject = 'Printer on fire';
	it.each([
		['a field added', { subject }, 2, { subject, tags: ['vip'] }],
		['a field removed', { priority: 'high', subject }, 0, { subject }],
		['a field changed', { subject, priority: 'high' }, 1, { subject, priority: 'low' }],
		['a list changed', { tags: ['vip'], subject }, 3, { tags: ['vip', 'urgent'], subject }],
		[
			'a nested field changed',
			{ subject, customer: { plan: 'free' } },
			5,
			{ subject, customer: { plan: 'pro' } }
		],
		[
			'a number deep inside changed',
			{ customer: { plan: 'pro', since: 2019 }, subject },
			7,
			{ customer: { plan: 'pro', since: 2024 }, subject }
		]
	])('%s', (_, json, how, body) => {
		expect(changed({ ...retry, json, stepFails: true }, how)).toEqual({ ...retry, json: body });
	});
	it('another subject for an event', () => {
		const event = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject };
		const webhook: Call = { do: 'send', route: 'webhooks', json: event };
		expect(changed(webhook, 1)).toEqual({ ...webhook, json: { ...event, subject: 'printer on fire' } });
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
			const replayed = steps.slice(0, before).some((s) => s.do === 'send' && s.key === step.key);
			if (waited === 0) return ['now'];
			if (waited === retentionHours * 60) return ['at the retention'];
			return replayed && waited > 0 ? ['later, after a request before'] : ['later'];
		})
	);
	it('retry the request before, its fields reversed, now, exactly at its retention, and after a replay', () => {
		expect(retries).toContain('now');
		expect(retries).toContain('at the retention');
		expect(retries).toContain('later, after a request before');
	});
	it('send another body under a key in use: a field added, removed or changed, deep inside too', () => {
		const bodies = drawn.flatMap(({ steps }) =>
			steps.flatMap((step) =>
				step.do === 'send' && step.route === 'tickets' ? [JSON.stringify(step.json)] : []
			)
		);
		expect(bodies.some((body) => body.includes('"customer":{"plan":"free"}'))).toBe(true);
		expect(bodies.some((body) => body.includes('"tags":["vip","urgent"]'))).toBe(true);
	});
});
