import { describe, expect, it } from 'vitest';
import { todo, NotWrittenYet } from '../todo.ts';
import { defaultRetention, type EndpointOptions, type Route } from './contract.ts';
import { playEndpoint, type EndpointCode } from './play.ts';
import { endpointSchedules } from './schedules.ts';
import { stubAtFirstRequest } from './stub-check.ts';

const schedule = endpointSchedules().find((s) => s.steps.some((step) => step.do === 'send'))!;
const stub = (): Route => async () => todo('tickets', '06-ticket-endpoint/endpoint.ts');
// A play that must not need a server: asking for one fails the test.
let asked = 0;
const noServer = async () => {
	asked++;
	throw new Error('this play should not need PostgreSQL');
};

describe('the stub check before a play', () => {
	it('ends a play at a stub, at request 1, with the NotWrittenYet the server would record, and no server', async () => {
		asked = 0;
		const code: EndpointCode = { tickets: stub, webhooks: stub };
		const played = await playEndpoint(schedule, 'everything', code, noServer);
		expect(played.thrown[0]?.request).toBe(1);
		expect(played.thrown[0]?.error).toBeInstanceOf(NotWrittenYet);
		expect(played.outcomes, 'no request crossed the network').toEqual([]);
		expect(asked).toBe(0);
	});

	it('finds a stub that throws while its route is built', async () => {
		asked = 0;
		const building = () => todo('webhooks', '06-ticket-endpoint/endpoint.ts');
		const code: EndpointCode = { tickets: stub, webhooks: building };
		await expect(playEndpoint(schedule, 'everything', code, noServer)).rejects.toBeInstanceOf(NotWrittenYet);
		expect(asked).toBe(0);
	});

	it('hands a written route one request at most, stopped where it reaches for the store, then never again', async () => {
		let calls = 0;
		let reachedTheStore = false;
		const written =
			({ store }: EndpointOptions): Route =>
			async () => {
				calls++;
				return store.transaction(async () => {
					reachedTheStore = true;
					return new Response(null, { status: 201 });
				});
			};
		const options: EndpointOptions = {
			store: { transaction: async () => Promise.reject(new Error('the real store is not for the check')) },
			remember: 'everything',
			retention: defaultRetention,
			now: () => new Date(),
			tenant: 'acme'
		};
		const request = () => new Request('http://127.0.0.1/api/tickets', { method: 'POST', body: '{}' });
		expect(await stubAtFirstRequest(written, options, request(), 'none')).toBeNull();
		expect(await stubAtFirstRequest(written, options, request(), 'none')).toBeNull();
		expect(calls).toBe(1);
		expect(reachedTheStore, 'the store stops the route before its work').toBe(false);
	});
});
