// A held request let go runs first (play.ts, faults.ts): the others in flight wait their turn until it has
// answered or waits on a lock. So code that takes the locks wrong ends the same way on every run, however
// busy the machine: the first delivery is let go, and dawdles before it saves its receipt, and still wins.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../database/errors.ts';
import type { EndpointOptions, Route } from './contract.ts';
import { playEndpoint, type EndpointCode } from './play.ts';
import { postgresUrl } from './postgres-on-demand.ts';
import { loadEndpointSchedule } from './schedules.ts';
import { saidAnswer } from './judge.ts';

const schedule = loadEndpointSchedule(
	fileURLToPath(new URL('../../schedules/endpoint/two-deliveries-at-once.json', import.meta.url))
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Event = { tenant: string; source: string; eventId: string; subject: string };

// The second delivery saves its ticket in a transaction of its own and then its receipt ('ticket first', as
// receipt-saved-after-the-ticket-commits does), or its receipt and then its ticket in one ('receipt first').
type Second = 'ticket first' | 'receipt first';

// Two deliveries of one event. The first saves its ticket in a transaction of its own (held at that commit),
// dawdles, then saves its receipt in a second; a duplicate receipt answers with the ticket that won.
function deliveries(second: Second, dawdleMs: number): EndpointCode {
	const webhooks = ({ store, now }: EndpointOptions): Route => {
		let arrived = 0;
		return async (request) => {
			const event = (await request.json()) as Event;
			const first = ++arrived === 1;
			const receipt = (ticketId: number) => ({ ...event, ticketId, receivedAt: now() });
			const ticket = () => store.transaction((tx) => tx.createTicket(event));
			try {
				if (first || second === 'ticket first') {
					const ticketId = await ticket();
					if (first) await sleep(dawdleMs);
					await store.transaction((tx) => tx.saveReceipt(receipt(ticketId)));
					return Response.json({ kind: 'created', ticketId }, { status: 201 });
				}
				const ticketId = await store.transaction(async (tx) => {
					await tx.saveReceipt(receipt(0));
					return tx.createTicket(event);
				});
				return Response.json({ kind: 'created', ticketId }, { status: 201 });
			} catch (error) {
				if (!(error instanceof UniqueViolation)) throw error;
				const winner = await store.transaction((tx) => tx.findReceipt(event));
				return Response.json({ kind: 'replayed', ticketId: winner?.ticketId }, { status: 200 });
			}
		};
	};
	return { tickets: () => async () => new Response(null, { status: 404 }), webhooks };
}

// Started before the plays, so no play's answer limit includes starting PostgreSQL.
let url = '';
beforeAll(async () => void (url = await postgresUrl()), 120_000);

async function answers(code: EndpointCode): Promise<string[]> {
	const played = await playEndpoint(schedule, 'everything', code, url);
	expect(played.stopped?.why ?? null, 'where the play stopped').toBeNull();
	return played.outcomes.map((outcome) => saidAnswer(outcome.answer));
}

describe('a held request let go runs first', () => {
	it('ahead of the request that waited, however long it dawdles: the same answers every run', async () => {
		const firstWins = ['201 {"kind":"created","ticketId":1}', '200 {"kind":"replayed","ticketId":1}'];
		for (const dawdleMs of [0, 30, 0, 30])
			expect(
				await answers(deliveries('ticket first', dawdleMs)),
				`the first dawdling ${dawdleMs} ms`
			).toEqual(firstWins);
	}, 60_000);

	it('until it waits on a lock that a request waiting its turn holds: then that one goes on', async () => {
		// The second's receipt, not yet committed, is what the first's insert waits for: no hang, the second wins.
		const secondWins = ['200 {"kind":"replayed","ticketId":0}', '201 {"kind":"created","ticketId":2}'];
		expect(await answers(deliveries('receipt first', 0))).toEqual(secondWins);
	}, 60_000);
});
