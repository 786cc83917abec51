import { describe, expect, it } from 'vitest';
import { endpointSchedules, loadEndpointSchedule } from './schedules.ts';
import { brokenCopy } from '../core/broken-copy.ts';

const name = 'key-in-flight-gets-409';
const problemWith = brokenCopy('endpoint', name, loadEndpointSchedule);

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
