import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countSchedules, goReference, scheduleNames } from './go-reference.ts';

const line = (Action: string, Test: string) => JSON.stringify({ Action, Test, Package: 'workbook/handler' });

describe('the Go reference line', () => {
	it('counts the schedules played by leaf subtests; one failing subtest fails its schedule', () => {
		const json = [
			line('run', 'TestSchedules'),
			line('pass', 'TestSchedules/create-every-time/one-delivery'),
			line('fail', 'TestSchedules/receipt-in-commit/lost-acknowledgment'),
			line('pass', 'TestSchedules/receipt-in-commit/one-delivery'),
			line('pass', 'TestSchedules/receipt-in-commit'),
			line('pass', 'TestSameEvent/another_tenant'),
			'ok  	workbook/handler	0.01s'
		].join('\n');
		const counted = countSchedules(json, new Set(['one-delivery', 'lost-acknowledgment']));
		expect([counted.passed, counted.total, counted.subtests]).toEqual([1, 2, 3]);
		expect(counted.failed).toEqual(['lost-acknowledgment']);
	});

	it('knows every schedule by its file name', () => {
		expect(scheduleNames()).toContain('lost-acknowledgment');
	});

	it('says so, and does not fail, when there is no go/ folder', async () => {
		const empty = mkdtempSync(join(tmpdir(), 'no-go-'));
		expect(await goReference(empty)).toBe('Go reference: not run: there is no go/ folder with a go.mod');
	});
});
