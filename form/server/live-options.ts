// The options exercise 06's endpoint runs with when it serves for real: the form's backend and the load bench.
//
//   const route = tickets(liveOptions(await PostgresStore.open(url)));
//
// It remembers every first answer, 500s included (as Stripe does), keeps a key for a day, reads the real clock,
// and serves the tenant "acme". The schedules' players build their own, on the schedule's clock.
import { defaultRetention, type EndpointOptions, type Store } from '#harness/endpoint/contract.ts';

export function liveOptions(store: Store): EndpointOptions {
	return {
		store,
		remember: 'everything',
		retention: defaultRetention,
		now: () => new Date(),
		tenant: 'acme'
	};
}
