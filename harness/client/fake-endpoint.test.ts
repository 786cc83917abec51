import { describe, expect, it } from 'vitest';
import { maxKeyLength } from '../endpoint/contract.ts';
import { TicketEndpoint } from './fake-endpoint.ts';
import { canonical } from '../core/canonical.ts';

const signIn = { subject: 'Cannot sign in' };

describe('the fake ticket endpoint (IETF Idempotency-Key draft, Stripe)', () => {
	it('creates a ticket for a new key: 201 with the ticket', () => {
		const endpoint = new TicketEndpoint();
		expect(endpoint.post({ key: 'key-1', body: signIn })).toMatchObject({
			status: 201,
			ticketId: 1,
			replayed: false
		});
		expect(endpoint.state().tickets).toEqual([{ id: 1, tenant: 'acme', subject: 'Cannot sign in' }]);
		expect(endpoint.state().savedKeys).toEqual(['key-1']);
	});
	it('400 without a key, or with an empty one, and creates nothing', () => {
		const endpoint = new TicketEndpoint();
		expect(endpoint.post({ key: null, body: signIn })).toMatchObject({ status: 400, ticketId: null });
		expect(endpoint.post({ key: '', body: signIn })).toMatchObject({ status: 400, ticketId: null });
		expect(endpoint.state().tickets).toEqual([]);
	});
	it(`refuses keys longer than ${maxKeyLength} characters, and takes one of exactly ${maxKeyLength}`, () => {
		const endpoint = new TicketEndpoint();
		const tooLong = endpoint.post({ key: 'k'.repeat(maxKeyLength + 1), body: signIn });
		expect(tooLong).toMatchObject({ status: 400, ticketId: null });
		expect(tooLong.reason).toContain('255');
		expect(endpoint.post({ key: 'k'.repeat(maxKeyLength), body: signIn })).toMatchObject({ status: 201 });
	});
	it('counts a key in Unicode code points, as Go does: 255 "é" or "😀" pass, 256 are refused', () => {
		for (const character of ['é', '😀']) {
			const endpoint = new TicketEndpoint();
			expect(endpoint.post({ key: character.repeat(maxKeyLength), body: signIn }).status).toBe(201);
			expect(endpoint.post({ key: character.repeat(maxKeyLength + 1), body: signIn }).status).toBe(400);
		}
	});
	it("a blank subject is white space by JavaScript's trim(), as Go's isBlank lists it", () => {
		const cases: [string, number][] = [
			['\u00a0\u2003\u3000', 400],
			['\ufeff \u2028', 400],
			['\t\n\v\f\r', 400],
			['\u0085', 201], // next line: white space to Go's unicode.IsSpace, not to trim()
			['\u200b', 201] // a zero-width space is not white space
		];
		for (const [subject, status] of cases) {
			const endpoint = new TicketEndpoint();
			expect(endpoint.post({ key: 'k', body: { subject } }).status, JSON.stringify(subject)).toBe(status);
		}
	});
	it('replays the first answer for a key: the same status and ticket, marked replayed, no new ticket', () => {
		const endpoint = new TicketEndpoint();
		endpoint.post({ key: 'key-1', body: signIn });
		expect(endpoint.post({ key: 'key-1', body: { subject: 'Cannot sign in' } })).toMatchObject({
			status: 201,
			ticketId: 1,
			replayed: true
		});
		expect(endpoint.state().tickets).toHaveLength(1);
	});
	it('compares bodies by what they say, not the order of their fields', () => {
		expect(canonical({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonical({ a: [{ c: 3, d: 2 }], b: 1 }));
		expect(canonical({ a: 1 })).not.toBe(canonical({ a: '1' }));
	});
	it('422 for a saved key with another body', () => {
		const endpoint = new TicketEndpoint();
		endpoint.post({ key: 'key-1', body: signIn });
		expect(endpoint.post({ key: 'key-1', body: { subject: 'Another problem' } })).toMatchObject({
			status: 422,
			ticketId: null
		});
		expect(endpoint.state().tickets).toHaveLength(1);
	});
	it('409 for the same key while the first is still in flight; not saved, so a later retry replays', () => {
		const endpoint = new TicketEndpoint();
		const first = endpoint.arrive({ key: 'key-1', body: signIn });
		expect(endpoint.state().inFlight).toEqual(['key-1']);
		expect(endpoint.post({ key: 'key-1', body: signIn })).toMatchObject({ status: 409, ticketId: null });
		expect(endpoint.post({ key: 'key-1', body: { subject: 'Other' } })).toMatchObject({ status: 422 });
		expect(endpoint.respond(first)).toMatchObject({ status: 201, ticketId: 1, replayed: false });
		expect(endpoint.state().inFlight).toEqual([]);
		expect(endpoint.post({ key: 'key-1', body: signIn })).toMatchObject({ status: 201, replayed: true });
		expect(endpoint.state().tickets).toHaveLength(1);
	});
	it('a validation error (empty subject) is 400 and not saved: the key stays free', () => {
		const endpoint = new TicketEndpoint();
		expect(endpoint.post({ key: 'key-1', body: { subject: '  ' } })).toMatchObject({ status: 400 });
		expect(endpoint.post({ key: 'key-1', body: {} })).toMatchObject({ status: 400 });
		expect(endpoint.post({ key: 'key-1', body: null })).toMatchObject({ status: 400 });
		expect(endpoint.state().savedKeys).toEqual([]);
		expect(endpoint.post({ key: 'key-1', body: signIn })).toMatchObject({ status: 201 });
	});
	it('a worker that dies before its commit answers 500 and saves nothing, so the retry creates the ticket', () => {
		const endpoint = new TicketEndpoint();
		expect(endpoint.post({ key: 'key-1', body: signIn }, 'before-commit')).toMatchObject({ status: 500 });
		expect(endpoint.state()).toMatchObject({ tickets: [], inFlight: [], savedKeys: [] });
		expect(endpoint.post({ key: 'key-1', body: signIn })).toMatchObject({ status: 201, replayed: false });
	});
	it('keeps every request it saw, with its reply, for tests to inspect', () => {
		const endpoint = new TicketEndpoint();
		const held = endpoint.arrive({ key: 'key-1', body: signIn });
		endpoint.post({ key: null, body: signIn });
		const requests = endpoint.state().requests;
		expect(requests.map((r) => [r.number, r.key, r.reply?.status ?? 'in flight'])).toEqual([
			[1, 'key-1', 'in flight'],
			[2, null, 400]
		]);
		endpoint.respond(held);
		expect(endpoint.state().requests[0]!.reply).toMatchObject({ status: 201, ticketId: 1 });
	});
	it('its state is a copy: changing it changes nothing', () => {
		const endpoint = new TicketEndpoint();
		endpoint.post({ key: 'key-1', body: signIn });
		const state = endpoint.state();
		state.tickets[0]!.subject = 'changed';
		(state.requests[0]!.body as { subject: string }).subject = 'changed';
		expect(endpoint.state().tickets[0]!.subject).toBe('Cannot sign in');
		expect(endpoint.post({ key: 'key-1', body: signIn })).toMatchObject({ replayed: true });
	});
	it('refuses to answer a request twice, or one it never received', () => {
		const endpoint = new TicketEndpoint();
		const number = endpoint.arrive({ key: 'key-1', body: signIn });
		endpoint.respond(number);
		expect(() => endpoint.respond(number)).toThrow(/already answered/);
		expect(() => endpoint.respond(9)).toThrow(/never received request 9/);
	});
});
