// Exercise 06's POST /api/tickets on a real PostgreSQL, as the form's endpoint.
//
//   const backend = await startPostgresBackend('auto');   // yours once written, else the solution's
//   const backend = await startPostgresBackend('solution'); // the journeys: they test 04, not 06
//
// One PostgreSQL (postgres/server.ts) and one schema of its own (endpoint/postgres-store.ts) per backend;
// fresh() empties the tables. The endpoint remembers every first answer, 500s included, as Stripe does.
import { PostgresStore } from '#harness/endpoint/postgres-store.ts';
import { stubAtFirstRequest } from '#harness/endpoint/stub-check.ts';
import { startPostgres } from '#harness/postgres/server.ts';
import * as learner from '../../exercises/06-ticket-endpoint/endpoint.ts';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { serveBackend, type Backend } from './backend.ts';
import { liveOptions } from './live-options.ts';

export type EndpointChoice = 'auto' | 'solution';

export async function startPostgresBackend(choice: EndpointChoice): Promise<Backend> {
	const server = await startPostgres();
	try {
		let store = await PostgresStore.open(server.url);
		// The players' own stub check: it never hands a half-written route the real tables.
		const useYours =
			choice === 'auto' && (await stubAtFirstRequest(learner.tickets, liveOptions(store), 'none')) === null;
		const make = useYours ? learner.tickets : solution.tickets;
		let route = make(liveOptions(store));
		const whose = useYours
			? 'yours, exercises/06-ticket-endpoint/endpoint.ts'
			: choice === 'auto'
				? "the solution's, solutions/06-ticket-endpoint/endpoint.ts (yours still says 'not written yet')"
				: "the solution's, solutions/06-ticket-endpoint/endpoint.ts";
		return await serveBackend({
			label: `exercise 06's endpoint on PostgreSQL: ${whose}`,
			handle: (request) => route(request),
			tickets: async () => (await store.contents()).tickets,
			// Emptied tables; or, when a request from the last journey still holds them, a new schema.
			empty: async () => {
				try {
					await store.empty();
				} catch {
					const old = store;
					store = await PostgresStore.open(server.url);
					route = make(liveOptions(store));
					await old.close().catch(() => {});
				}
			},
			close: async () => {
				await store.close().catch(() => {});
				await server.stop();
			}
		});
	} catch (error) {
		await server.stop();
		throw error;
	}
}
