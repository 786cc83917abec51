import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlerSchedules, loadHandlerSchedule } from './schedules.ts';
import { brokenCopy } from '../core/broken-copy.ts';

const problemWith = brokenCopy('handler', 'lost-acknowledgment', loadHandlerSchedule);

describe('schedule loading', () => {
	it("loads the lesson's nine handler schedules first, then the ones beyond them", () => {
		const all = handlerSchedules();
		const names = all.map((s) => s.name);
		const nine = all.findIndex((s) => s.beyond);
		expect(nine, 'the lesson has nine').toBe(9);
		expect(
			all.slice(nine).every((s) => s.beyond && s.order === undefined),
			'then only the ones beyond'
		).toBe(true);
		expect(names.slice(0, 3), 'in the lesson\'s order, as each file\'s "order" says').toEqual([
			'one-delivery',
			'lost-acknowledgment',
			'crash-before-commit'
		]);
	});
	it('names the file and a misspelled field', () => {
		const message = problemWith((s) => {
			s.deliveries[1].faut = s.deliveries[1].fault;
			delete s.deliveries[1].fault;
		});
		expect(message).toContain('lost-acknowledgment.json');
		expect(message).toContain('deliveries[1].faut: not a field here');
		expect(message).toContain('deliveries[1].fault: missing');
	});
	it('names a fault that is not one of the three', () => {
		expect(problemWith((s) => (s.deliveries[0].fault = 'sometimes'))).toContain(
			'deliveries[0].fault: must be one of'
		);
	});
	it('names a schedule whose name is not its file name', () => {
		expect(problemWith(() => {}, 'renamed')).toContain(
			'renamed.json: name: "lost-acknowledgment" must match'
		);
	});
	it('names an expectation with the wrong number of outcomes', () => {
		const message = problemWith((s) => s.expect['receipt-in-commit'].outcomes.pop());
		expect(message).toContain('expect.receipt-in-commit.outcomes: 1 outcomes for 2 deliveries');
	});
	it('names a created outcome without a ticket', () => {
		const message = problemWith((s) => (s.expect['create-every-time'].outcomes[1].ticketId = null));
		expect(message).toContain(
			'expect.create-every-time.outcomes[1].ticketId: a created outcome needs a ticketId'
		);
	});
	it('says when the file is not JSON at all', () => {
		const folder = mkdtempSync(join(tmpdir(), 'schedule-'));
		const path = join(folder, 'one-delivery.json');
		writeFileSync(path, '{ "name": ');
		try {
			expect(() => loadHandlerSchedule(path)).toThrow(/one-delivery\.json: not valid JSON/);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
