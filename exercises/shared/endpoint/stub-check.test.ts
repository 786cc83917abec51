import { describe, expect, it } from 'vitest';
import { todo, NotWrittenYet } from '../todo.ts';
import type { EndpointOptions, Route } from './contract.ts';
import type { EndpointCode } from './play.ts';
import { endpointSchedules } from './schedules.ts';
import { stubbedAtFirstSend } from './stub-check.ts';

const schedule = endpointSchedules().find((s) => s.steps.some((step) => step.do === 'send'))!;
const stub = (): Route => async () => todo('tickets', '06-ticket-endpoint/endpoint.ts');

describe('the stub check before a play', () => {
	it('finds a stub at request 1, with the NotWrittenYet the play would end with', async () => {
		const code: EndpointCode = { tickets: stub, webhooks: stub };
		const found = await stubbedAtFirstSend(code, schedule, 'everything');
		expect(found?.at).toBe('request 1');
		expect(found?.error).toBeInstanceOf(NotWrittenYet);
	});

	it('finds a stub that throws while its route is built', async () => {
		const building = () => todo('webhooks', '06-ticket-endpoint/endpoint.ts');
		const found = await stubbedAtFirstSend({ tickets: stub, webhooks: building }, schedule, 'everything');
		expect(found?.at).toBe('building the routes');
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
		const code: EndpointCode = { tickets: written, webhooks: written };
		expect(await stubbedAtFirstSend(code, schedule, 'everything')).toBeNull();
		expect(await stubbedAtFirstSend(code, schedule, 'successes')).toBeNull();
		expect(calls).toBe(1);
		expect(reachedTheStore, 'the store stops the route before its work').toBe(false);
	});
});
