// The endpoint the form posts to, served on loopback, with what it received written down for the journeys.
//
//   const backend = await startBackend();      // from ./endpoint.ts: the one line that picks the endpoint
//   backend.label                              // what the page says is running
//   backend.received                           // every request that reached the endpoint, with its answer
//   await backend.tickets()                    // the tickets it holds now
//   await backend.fresh()                      // no tickets, no keys, nothing received: for the next journey
//   await backend.stop()
//
// Any Route, `(request: Request) => Promise<Response>`, serves as POST /api/tickets: exercise 06's endpoint on
// PostgreSQL (postgres-endpoint.ts), or the harness's in-memory TicketEndpoint through a small adapter
// (fake-endpoint.ts). It is served by exercise 06's own server (#harness/endpoint/server.ts), so the form's
// endpoint answers other paths and methods, bodies that are too big, and a route that throws, as the tests see it.
import type { Route } from '#harness/endpoint/contract.ts';
import { serve } from '#harness/endpoint/server.ts';
import type { Ticket } from '#harness/core/model.ts';

// One request that reached the endpoint: the key it carried, its body, and what the endpoint answered.
export type Received = { key: string | null; body: unknown; status: number; ticketId: number | null };

export type Backend = {
	label: string;
	url: string;
	received: Received[];
	tickets: () => Promise<Ticket[]>;
	fresh: () => Promise<void>;
	stop: () => Promise<void>;
};

// What a backend is made of: a handler, a way to list its tickets, and anything to stop after the server.
export type BackendParts = {
	label: string;
	handle: Route;
	tickets: () => Promise<Ticket[]>;
	// Forgets every ticket and key, so ticket numbers start from 1 again.
	empty: () => Promise<void>;
	close?: () => Promise<void>;
};

export async function serveBackend(parts: BackendParts): Promise<Backend> {
	const received: Received[] = [];
	let working = 0;
	const served = await serve({
		'/api/tickets': async (request) => {
			const key = request.headers.get('idempotency-key');
			const text = await request.clone().text();
			working += 1;
			const response = await parts.handle(request).finally(() => (working -= 1));
			const answer = response.ok
				? await response
						.clone()
						.json()
						.catch(() => null)
				: null;
			const id = (answer as { id?: unknown } | null)?.id;
			received.push({
				key,
				body: parse(text),
				status: response.status,
				ticketId: typeof id === 'number' ? id : null
			});
			return response;
		}
	});
	return {
		label: parts.label,
		url: served.url,
		received,
		tickets: parts.tickets,
		fresh: async () => {
			// A request from the last journey may still be at work (its page is gone): let it finish first.
			for (let waited = 0; working > 0 && waited < 10_000; waited += 20) await sleep(20);
			received.length = 0;
			await parts.empty();
		},
		stop: async () => {
			await served.close();
			await parts.close?.();
		}
	};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
