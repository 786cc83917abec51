import { afterEach, describe, expect, it } from 'vitest';
import { json, maxBodyBytes, type Route } from './contract.ts';
import { Plan } from './faults.ts';
import { post } from './play.ts';
import type { Send } from './schedules.ts';
import { serve, type Served } from './server.ts';

const request = (body: Partial<Send> = {}): Send => ({
	do: 'send',
	route: 'tickets',
	key: 'k-1',
	json: { subject: 'Cannot sign in' },
	fault: 'none',
	expect: { status: 201 },
	...body
});

// A route that echoes what it was given, so a test can see what reached it.
const echo: Route = async (incoming) =>
	json(201, {
		key: incoming.headers.get('Idempotency-Key'),
		plan: incoming.headers.get('Workbook-Request'),
		body: await incoming.text()
	});

let server: Served | null = null;
afterEach(async () => {
	await server?.close();
	server = null;
});

describe('the endpoint server (node:http on loopback)', () => {
	it('hands the route a Fetch Request without the harness headers, and writes its Response back', async () => {
		server = await serve({ '/api/tickets': echo });
		const answer = await post(server.url, '/api/tickets', request(), 1);
		expect(answer?.status).toBe(201);
		expect(JSON.parse(answer!.body)).toEqual({
			key: 'k-1',
			plan: null,
			body: '{"subject":"Cannot sign in"}'
		});
	});
	it('answers 413 for a body over 64 KiB before the route sees it, and keeps serving', async () => {
		let calls = 0;
		server = await serve({ '/api/tickets': async (r) => (calls++, echo(r)) });
		const big = await post(
			server.url,
			'/api/tickets',
			request({ json: undefined, subjectBytes: maxBodyBytes + 1 }),
			1
		);
		expect(big?.status).toBe(413);
		expect(big?.headers['content-type']).toBe('application/problem+json');
		expect(calls).toBe(0);
		expect((await post(server.url, '/api/tickets', request(), 2))?.status).toBe(201);
	});
	it('answers 404 elsewhere, and 500 when the route throws, saying which request it was', async () => {
		server = await serve({
			'/api/tickets': async () => {
				throw new Error('boom');
			}
		});
		expect((await post(server.url, '/nowhere', request(), 1))?.status).toBe(404);
		expect((await post(server.url, '/api/tickets', request(), 2))?.status).toBe(500);
		expect(server.thrown).toEqual([{ path: '/api/tickets', request: 2, error: new Error('boom') }]);
	});
	it('drops the connection without an answer when the plan loses the answer after the commit', async () => {
		server = await serve({ '/api/tickets': echo });
		server.plans.set('1', new Plan('after-commit'));
		expect(await post(server.url, '/api/tickets', request(), 1)).toBeNull();
		expect((await post(server.url, '/api/tickets', request(), 2))?.status).toBe(201);
	});
});
