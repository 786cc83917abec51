import { describe, expect, it } from 'vitest';
import { clientJourneys, loadClientJourney } from './journeys.ts';
import { brokenCopy } from '../core/broken-copy.ts';

const problemWith = brokenCopy('client', 'send-pressed-twice', loadClientJourney, 'journey');

describe('client journey loading', () => {
	it("loads every journey, including all of the issue's table", () => {
		const names = clientJourneys().map((journey) => journey.name);
		for (const name of [
			'train-reload',
			'send-pressed-twice',
			'refused-then-corrected',
			'server-error-keeps-the-key',
			'new-ticket-after-success',
			'two-forms',
			'a-new-key-per-attempt'
		])
			expect(names).toContain(name);
	});
	it('names the file and a misspelled field', () => {
		const message = problemWith((j) => {
			j.steps[1].fait = j.steps[1].fate;
			delete j.steps[1].fate;
		});
		expect(message).toContain('send-pressed-twice.json');
		expect(message).toContain('steps[1].fait: not a field here');
	});
	it('names a fate that is not one of the five', () => {
		expect(problemWith((j) => (j.steps[1].fate = 'sometimes'))).toContain('steps[1].fate: must be one of');
	});
	it('names a field a step of that kind does not take, and one it needs', () => {
		expect(problemWith((j) => (j.steps[0].number = 1))).toContain(
			'steps[0].number: not a field of a type step (it takes form, subject, locked)'
		);
		expect(problemWith((j) => delete j.steps[2].request)).toContain(
			'steps[2].request: missing: a send step needs it'
		);
	});
	it('names a form that is not on the page', () => {
		expect(problemWith((j) => (j.steps[0].form = 'sales'))).toContain(
			'steps[0].form: "sales" is not one of the forms (support)'
		);
		expect(problemWith((j) => delete j.steps[0].shows.support)).toContain(
			'steps[0].shows: says nothing about support'
		);
	});
	it('names a state with the wrong fields for its kind', () => {
		expect(problemWith((j) => (j.steps[2].shows.support = { kind: 'unsure' }))).toContain(
			'steps[2].shows.support.status: missing: unsure needs it'
		);
		expect(problemWith((j) => (j.steps[2].shows.support = { kind: 'editing', status: 409 }))).toContain(
			'steps[2].shows.support.status: not a field of editing'
		);
	});
	it('names a release of a request that was never held, and a held request never released', () => {
		expect(problemWith((j) => (j.steps[3].number = 2))).toContain(
			'steps[3].number: request 2 was not sent held earlier'
		);
		expect(problemWith((j) => j.steps.splice(3, 1))).toContain(
			'steps[1].fate: request 1 is held and never released'
		);
	});
	it('names a lost request that expects a reply', () => {
		expect(problemWith((j) => (j.steps[2].fate = 'request-lost'))).toContain(
			'steps[2].request.reply: must be null: the request never arrived'
		);
	});
	it('names tickets that do not count up from 1', () => {
		expect(problemWith((j) => (j.tickets[0].id = 2))).toContain('tickets[0].id: tickets count up from 1');
	});
});
