import { describe, expect, it } from 'vitest';
import { todo, NotWrittenYet } from '../core/todo.ts';
import { defaultRetention, type EndpointOptions, type Route } from './contract.ts';
import { clientJourneys } from '../client/journeys.ts';
import type { KeyStoreCode } from '../client/play.ts';
import { playJourneyOverHttp } from './journeys.ts';
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
		expect(await stubAtFirstRequest(written, options, 'none')).toBeNull();
		expect(await stubAtFirstRequest(written, options, 'none')).toBeNull();
		expect(calls).toBe(1);
		expect(reachedTheStore, 'the store stops the route before its work').toBe(false);
	});

	it('finds a route written as soon as it reads its request, without making a Fetch Request', async () => {
		let calls = 0;
		const reads = (): Route => async (request) => {
			calls++;
			return new Response(request.headers.get('idempotency-key'), { status: 201 });
		};
		const options: EndpointOptions = {
			store: { transaction: async () => Promise.reject(new Error('not for the check')) },
			remember: 'everything',
			retention: defaultRetention,
			now: () => new Date(),
			tenant: 'acme'
		};
		expect(await stubAtFirstRequest(reads, options, 'none')).toBeNull();
		expect(calls).toBe(1);
		const partly = (): Route => async (request) => {
			await request.json();
			return todo('tickets', '06-ticket-endpoint/endpoint.ts');
		};
		expect(await stubAtFirstRequest(partly, options, 'none'), 'it reads first: played for real').toBeNull();
	});

	it('ends a client journey at its first request when the tickets route is a stub: no server, no fetch', async () => {
		asked = 0;
		let calls = 0;
		let sawFetchRequest = false;
		const counted = (): Route => async (request) => {
			calls++;
			// Over HTTP the route gets a real Request; the check's own request stops at this first look.
			try {
				sawFetchRequest ||= request instanceof Request;
			} catch {}
			return todo('tickets', '06-ticket-endpoint/endpoint.ts');
		};
		const journey = clientJourneys().find(
			(j) =>
				j.client === 'new-key-per-attempt' && j.steps.find((s) => s.do === 'send')?.fate !== 'request-lost'
		)!;
		const unused = {} as KeyStoreCode;
		const played = await playJourneyOverHttp(
			journey,
			unused,
			{ tickets: counted, webhooks: stub },
			'successes',
			noServer
		);
		expect(played.thrown).toHaveLength(1);
		expect(played.thrown[0]?.request).toBe(1);
		expect(played.thrown[0]?.error).toBeInstanceOf(NotWrittenYet);
		expect(calls, 'only the check called the route').toBe(1);
		expect(sawFetchRequest, 'nothing went over HTTP').toBe(false);
		expect(asked).toBe(0);
	});
});
