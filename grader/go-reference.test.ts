import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoTestJson } from '../scripts/go-test.ts';
import { countSchedules, goReference } from './go-reference.ts';

const event = (Action: string, Test: string, Output?: string) =>
	JSON.stringify({ Action, Test, Package: 'workbook/handler', Output });

describe('the Go reference line', () => {
	it('counts the schedules the Go tests say they play; one failing test fails its schedule', () => {
		const json = [
			event(
				'output',
				'TestSchedules/create-every-time/one-delivery',
				'    play.go:9: plays handler/one-delivery as create-every-time\n'
			),
			event('pass', 'TestSchedules/create-every-time/one-delivery'),
			event(
				'output',
				'TestSchedules/receipt-in-commit/one-delivery',
				'    play.go:9: plays handler/one-delivery as receipt-in-commit\n'
			),
			event('pass', 'TestSchedules/receipt-in-commit/one-delivery'),
			event(
				'output',
				'TestSchedules/receipt-in-commit/lost-acknowledgment',
				'    play.go:9: plays handler/lost-acknowledgment as receipt-in-commit\n'
			),
			event('fail', 'TestSchedules/receipt-in-commit/lost-acknowledgment'),
			event('fail', 'TestSchedules/receipt-in-commit'),
			event('pass', 'TestSameEvent/another_tenant')
		].join('\n');
		const files = ['handler/lost-acknowledgment', 'handler/one-delivery', 'handler/same-words-new-event'];
		const counted = countSchedules(readGoTestJson(json, 1), files);
		expect(counted).toEqual({
			passed: 1,
			total: 3,
			subtests: 3,
			failed: ['handler/lost-acknowledgment'],
			unplayed: 1
		});
	});

	it('says so, and does not fail, when there is no go/ folder', async () => {
		const empty = mkdtempSync(join(tmpdir(), 'no-go-'));
		expect(await goReference(empty)).toBe('Go reference: not run: there is no go/ folder with a go.mod');
	});
});
