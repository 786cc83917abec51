// Is a route still a stub? Asked by the player (play.ts) before it sends a schedule's first request.
//
//   const stub = await stubAtFirstRequest(code.tickets, options, request, 'none');   // NotWrittenYet, or null
//
// A stub throws NotWrittenYet at once, before it touches the store. So the first request is handed to the route
// directly, on a store that stops at its first use: when the route throws NotWrittenYet, the play would end
// the same way, and it ends there, without HTTP or PostgreSQL. A route that answers, or reaches for the store,
// is played for real, and is not asked again in this run.
import type { EndpointOptions, Route, Store } from './contract.ts';
import { Plan, type Fault } from './faults.ts';
import { NotWrittenYet } from '../todo.ts';

class StoreNotReached extends Error {}
const stopsAtFirstUse: Store = {
	transaction: async () => {
		throw new StoreNotReached('the stub check stops where the store is used');
	}
};

type RouteMaker = (options: EndpointOptions) => Route;
// The routes found written in this run: each is handed one request at most, then always played for real.
const written = new WeakSet<RouteMaker>();

export async function stubAtFirstRequest(
	makeRoute: RouteMaker,
	options: EndpointOptions,
	request: Request,
	fault: Fault
): Promise<NotWrittenYet | null> {
	if (written.has(makeRoute)) return null;
	try {
		const route = makeRoute({ ...options, store: stopsAtFirstUse });
		await new Plan(fault).run(() => route(request));
	} catch (error) {
		if (error instanceof NotWrittenYet) return error;
	}
	written.add(makeRoute);
	return null;
}
