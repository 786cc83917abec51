import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schedulesDir } from '../loaders/schedules.ts';
import { endpointSchedules, loadEndpointSchedule } from './schedules.ts';

const name = 'key-in-flight-gets-409';
const original = JSON.parse(readFileSync(join(schedulesDir, 'endpoint', `${name}.json`), 'utf8'));

// Writes a changed copy of a real schedule and loads it, returning the error message.
function problemWith(change: (schedule: any) => void): string {
	const schedule = structuredClone(original);
	change(schedule);
	const path = join(mkdtempSync(join(tmpdir(), 'schedule-')), `${name}.json`);
	writeFileSync(path, JSON.stringify(schedule));
	try {
		loadEndpointSchedule(path);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error('the malformed schedule loaded without complaint');
}

describe('endpoint schedule loading', () => {
	it("loads every endpoint schedule, in the exercise's order", () => {
		const names = endpointSchedules().map((s) => s.name);
		expect(names.slice(0, 2)).toEqual(['first-request-creates', 'same-key-same-body-replays']);
		expect(names).toContain('redelivery-after-receipts-expire');
	});
	it('names the file and a misspelled field of a send', () => {
		const message = problemWith((s) => {
			s.steps[0].falut = s.steps[0].fault;
			delete s.steps[0].fault;
		});
		expect(message).toContain(`${name}.json`);
		expect(message).toContain('steps[0].falut: not a field here');
		expect(message).toContain('steps[0].fault: missing');
	});
	it('names a fault that is not one of the five', () => {
		expect(problemWith((s) => (s.steps[1].fault = 'sometimes'))).toContain('steps[1].fault: must be one of');
	});
	it('names a send with two bodies', () => {
		expect(problemWith((s) => (s.steps[1].text = '{}'))).toContain('steps[1]: give the body exactly one way');
	});
	it('names a held request that is never released', () => {
		expect(problemWith((s) => s.steps.splice(2, 1))).toContain(
			'steps[0].fault: request 1 is held and never released'
		);
	});
	it('names a release of a request that was not held', () => {
		expect(problemWith((s) => (s.steps[2].request = 2))).toContain(
			'steps[2].request: request 2 was not sent held earlier'
		);
	});
	it('names sameAs that points at a later request', () => {
		expect(problemWith((s) => (s.steps[3].expect.sameAs = 3))).toContain(
			'steps[3].expect.sameAs: must name an earlier request'
		);
	});
});
