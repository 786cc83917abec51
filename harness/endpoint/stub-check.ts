// Is a route still a stub? Asked by the players (play.ts, journeys.ts) before their first request goes out.
//
//   const stub = await stubAtFirstRequest(code.tickets, options, 'none');   // NotWrittenYet, or null
//
// A stub throws NotWrittenYet at once, before it reads its request or touches the store. So the route is handed
// a request and a store that both stop at their first use: when it throws NotWrittenYet, the play would end
// the same way, and it ends there, without HTTP, a Fetch Request or PostgreSQL. A route that answers, or
// reaches for its request or the store, is played for real, and is not asked again in this run.
import type { EndpointOptions, Route, Store } from './contract.ts';
import { Plan, type Fault } from './faults.ts';
import { NotWrittenYet } from '../core/todo.ts';

class NotReached extends Error {}
const stopsAtFirstUse: Store = {
	transaction: async () => {
		throw new NotReached('the stub check stops where the store is used');
	}
};
// Any look at it (a header, the body, even instanceof) stops the check: the route is written.
const stop = (): never => {
	throw new NotReached('the stub check stops where the request is read');
};
const requestStopsAtFirstUse = new Proxy({} as Request, {
	get: stop,
	has: stop,
	set: stop,
	ownKeys: stop,
	getPrototypeOf: stop,
	getOwnPropertyDescriptor: stop
});

type RouteMaker = (options: EndpointOptions) => Route;
// The routes found written in this run: each is handed one request at most, then always played for real.
const written = new WeakSet<RouteMaker>();

export async function stubAtFirstRequest(
	makeRoute: RouteMaker,
	options: EndpointOptions,
	fault: Fault
): Promise<NotWrittenYet | null> {
	if (written.has(makeRoute)) return null;
	try {
		const route = makeRoute({ ...options, store: stopsAtFirstUse });
		await new Plan(fault).run(() => route(requestStopsAtFirstUse));
	} catch (error) {
		if (error instanceof NotWrittenYet) return error;
	}
	written.add(makeRoute);
	return null;
}
