import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoTestJson } from '../lib/go-test.ts';
import { parity } from './parity.ts';
import { scheduleFiles } from '../lib/schedule-files.ts';

const files = ['handler/one-delivery', 'handler/lost-acknowledgment', 'race/two-workers'];
const both = [
	'handler/one-delivery as create-every-time',
	'handler/one-delivery as receipt-in-commit',
	'handler/lost-acknowledgment as receipt-in-commit'
];

describe('the TypeScript–Go parity check', () => {
	it('passes when both sides play the same schedules in the same roles', () => {
		const result = parity(files, both, [...both].reverse(), ['race']);
		expect(result.problems).toEqual([]);
		expect(result.checked).toEqual(['handler/one-delivery', 'handler/lost-acknowledgment']);
	});
	it('names a schedule that only TypeScript plays, and one that only Go plays', () => {
		const result = parity(
			files,
			both,
			[both[0]!, both[2]!, 'handler/lost-acknowledgment as create-every-time'],
			['race']
		);
		expect(result.problems).toEqual([
			'handler/one-delivery as receipt-in-commit: played by TypeScript but not by Go',
			'handler/lost-acknowledgment as create-every-time: played by Go but not by TypeScript'
		]);
	});
	it('names a schedule that nobody plays', () => {
		const result = parity(files, both.slice(0, 2), both.slice(0, 2), ['race']);
		expect(result.problems).toEqual(['handler/lost-acknowledgment: played by neither TypeScript nor Go']);
	});
	it('fails a kind one side does not play, unless it is listed as still to come, and then warns', () => {
		expect(parity(files, both, both, []).problems).toEqual([
			'race/two-workers: played by neither TypeScript nor Go'
		]);
		const waiting = parity(files, [...both, 'race/two-workers'], both, ['race', 'outbox']);
		expect(waiting.problems).toEqual([]);
		expect(waiting.warnings).toEqual([
			'race: Go side still to come (of 1 schedules, TypeScript plays 1, Go 0)',
			'outbox: still to come on both sides (no schedules on disk yet)'
		]);
		const goFirst = parity(files, both, [...both, 'race/two-workers'], ['race']);
		expect(goFirst.warnings).toEqual([
			'race: TypeScript side still to come (of 1 schedules, TypeScript plays 0, Go 1)'
		]);
	});
	it('says to take a kind off the list once both sides play all of it', () => {
		const result = parity(files, [...both, 'race/two-workers'], [...both, 'race/two-workers'], ['race']);
		expect(result.problems).toEqual([
			'race: both sides play all its schedules now; take it off sideToCome in tools/parity.ts'
		]);
	});
	it('names a played schedule that has no file', () => {
		const result = parity(files, [...both, 'handler/gone'], both, ['race']);
		expect(result.problems).toEqual(['TypeScript says it plays handler/gone, but there is no such file']);
	});
	it('lists the schedule files kind by kind, leaving out the schemas', () => {
		const dir = mkdtempSync(join(tmpdir(), 'schedules-'));
		for (const folder of ['schema', 'handler', 'race']) mkdirSync(join(dir, folder));
		writeFileSync(join(dir, 'schema', 'handler.schema.json'), '{}');
		writeFileSync(join(dir, 'handler', 'b.json'), '{}');
		writeFileSync(join(dir, 'handler', 'a.json'), '{}');
		writeFileSync(join(dir, 'race', 'notes.md'), '');
		expect(scheduleFiles(dir)).toEqual(['handler/a', 'handler/b']);
	});
});

describe('reading go test -json', () => {
	const event = (e: object) => JSON.stringify({ Package: 'workbook/handler', ...e });
	const out = [
		event({ Action: 'run', Test: 'TestPlay' }),
		event({ Action: 'run', Test: 'TestPlay/one-delivery' }),
		event({ Action: 'output', Test: 'TestPlay/one-delivery', Output: '=== RUN   TestPlay/one-delivery\n' }),
		event({
			Action: 'output',
			Test: 'TestPlay/one-delivery',
			Output: '    handler_test.go:36: plays handler/one-delivery as receipt-in-commit\n'
		}),
		event({
			Action: 'output',
			Test: 'TestPlay/one-delivery',
			Output: '    handler_test.go:38: expected #1\n'
		}),
		event({ Action: 'fail', Test: 'TestPlay/one-delivery' }),
		event({ Action: 'fail', Test: 'TestPlay' }),
		event({ Action: 'pass', Test: 'TestSameEvent' }),
		event({ Action: 'fail' })
	].join('\n');

	it('reads each test, its status, its output and what it plays; only leaves count', () => {
		const report = readGoTestJson(out, 1);
		expect(report.tests).toEqual([
			{ name: 'handler: TestPlay', status: 'failed', output: '', plays: [], leaf: false },
			{
				name: 'handler: TestPlay/one-delivery',
				status: 'failed',
				output: '    handler_test.go:38: expected #1\n',
				plays: ['handler/one-delivery as receipt-in-commit'],
				leaf: true
			},
			{ name: 'handler: TestSameEvent', status: 'passed', output: '', plays: [], leaf: true }
		]);
		expect(report.problems).toEqual([]);
	});
	it('turns a failed build into a problem', () => {
		const build = [
			JSON.stringify({
				ImportPath: 'workbook/handler',
				Action: 'build-output',
				Output: 'handler.go:3: syntax error\n'
			}),
			event({ Action: 'fail' })
		].join('\n');
		const report = readGoTestJson(build, 1);
		expect(report.problems).toEqual(['go/handler:\nhandler.go:3: syntax error']);
	});
});
