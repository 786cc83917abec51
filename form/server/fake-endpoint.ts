// The harness's in-memory TicketEndpoint (#harness/client/fake-endpoint.ts) as a Fetch-API handler: a stand-in for
// exercise 06's endpoint with the same wire format, that starts at once and needs no PostgreSQL
// (`npm run form -- --memory`, and the harness's tests of the network).
//
//   POST /api/tickets   Idempotency-Key: <key>   {"subject": "…"}
//   201 {"id": N}                                  a new ticket, or the saved answer replayed (Idempotent-Replayed: true)
//   400, 409, 422 application/problem+json         {"title": "Bad Request", "status": N, "detail": why, …}
//
// Each request is answered at once: it arrives and is worked on in one go, so the endpoint itself never holds
// one in flight. A 409 in the journeys comes from the network panel, standing in for a slow server. Other
// paths and methods never reach it: the server in front (backend.ts) answers them.
import { STATUS_CODES } from 'node:http';
import { problem, type Route } from '#harness/endpoint/contract.ts';
import { TicketEndpoint } from '#harness/client/fake-endpoint.ts';
import { serveBackend, type Backend } from './backend.ts';

export const fakeLabel = "the harness's in-memory TicketEndpoint, a stand-in for exercise 06's endpoint";

export function fakeTicketHandler(endpoint: () => TicketEndpoint): Route {
	return async (request) => {
		let body: unknown;
		try {
			body = await request.json();
		} catch {
			return problem(400, 'Bad Request', 'the body is not JSON');
		}
		const reply = endpoint().post({ key: request.headers.get('idempotency-key'), body });
		if (reply.status !== 201)
			return problem(reply.status, STATUS_CODES[reply.status] ?? 'Error', reply.reason);
		const headers: Record<string, string> = reply.replayed ? { 'idempotent-replayed': 'true' } : {};
		return Response.json({ id: reply.ticketId }, { status: 201, headers });
	};
}

export function startFakeBackend(): Promise<Backend> {
	let endpoint = new TicketEndpoint();
	return serveBackend({
		label: fakeLabel,
		handle: fakeTicketHandler(() => endpoint),
		tickets: async () => endpoint.state().tickets,
		empty: async () => {
			endpoint = new TicketEndpoint();
		}
	});
}
