import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goTest, readGoTestJson } from '../../lib/go-test.ts';
import { root } from '../sandbox/paths.ts';
import { countSchedules, goReference, referenceLine } from './go-reference.ts';

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

	const played = (test: string, schedule: string, action: string) => [
		event('output', test, `    play.go:9: plays ${schedule}\n`),
		event(action, test)
	];
	const files = ['handler/one-delivery', 'handler/lost-acknowledgment'];

	it('all green: the schedules and the count of Go tests that ran', () => {
		const json = [
			...played('TestSchedules/a/one-delivery', 'handler/one-delivery as a', 'pass'),
			...played('TestSchedules/a/lost-acknowledgment', 'handler/lost-acknowledgment as a', 'pass'),
			event('pass', 'TestSameEvent/another_tenant')
		].join('\n');
		expect(referenceLine(readGoTestJson(json, 0), files)).toBe(
			'Go reference: 2 of 2 schedules green, all 3 Go tests passed (2 schedule subtests)'
		);
	});

	it('a failing test that plays no schedule still makes the line say FAILED, with counts from what ran', () => {
		const json = [
			...played('TestSchedules/a/one-delivery', 'handler/one-delivery as a', 'pass'),
			...played('TestSchedules/a/lost-acknowledgment', 'handler/lost-acknowledgment as a', 'pass'),
			event('fail', 'TestSameEvent/another_tenant'),
			event('fail', 'TestSameEvent')
		].join('\n');
		const line = referenceLine(readGoTestJson(json, 1), files);
		expect(line).toMatch(
			/^Go reference: FAILED: 1 of 3 Go tests failed \(handler: TestSameEvent\/another_tenant\)/
		);
		expect(line).toContain('2 of 2 schedules green');
	});

	it('a package that does not build, or a red exit code with no test to blame, is a failure too', () => {
		const broken = readGoTestJson(
			[
				...played('TestSchedules/a/one-delivery', 'handler/one-delivery as a', 'pass'),
				...played('TestSchedules/a/lost-acknowledgment', 'handler/lost-acknowledgment as a', 'pass'),
				JSON.stringify({ Action: 'output', Package: 'workbook/race', Output: 'race.go:3: undefined: x\n' }),
				JSON.stringify({ Action: 'fail', Package: 'workbook/race' })
			].join('\n'),
			1
		);
		expect(referenceLine(broken, files)).toMatch(/^Go reference: FAILED: go\/race:/);
		const quiet = readGoTestJson(
			played('TestSchedules/a/one-delivery', 'handler/one-delivery as a', 'pass').join('\n'),
			2
		);
		expect(referenceLine(quiet, ['handler/one-delivery'])).toMatch(
			/^Go reference: FAILED: go test (failed|exited)/
		);
	});

	// The class report's line runs go/ as the grader names it, join(root, 'go'): the Go solutions must stand in
	// for the stubs there too, or every class is told its Go reference failed.
	it('plays the Go solutions, not the stubs, in go/ as the grader spells it', async () => {
		const report = await goTest(join(root, 'go'), 120_000, {
			packages: ['./exercises/01-first-handler'],
			postgres: false
		});
		const failed = report.tests.filter((test) => test.status === 'failed').map((test) => test.name);
		expect({ failed, problems: report.problems }).toEqual({ failed: [], problems: [] });
		expect(report.tests.filter((test) => test.status === 'passed').length).toBeGreaterThan(0);
	}, 150_000);

	it('says so, and does not fail, when there is no go/ folder', async () => {
		const empty = mkdtempSync(join(tmpdir(), 'no-go-'));
		expect(await goReference(empty)).toBe('Go reference: not run: there is no go/ folder with a go.mod');
	});
});
