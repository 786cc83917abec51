// Before a play asks for a server: is the route a schedule sends to first still a stub?
//
//   const stub = await stubbedAtFirstSend(code, schedule, 'everything');
//   if (stub) …  // the NotWrittenYet the play would end with, and where: building the routes, or request 1
//
// A stub throws NotWrittenYet at once, before it touches the store. So the first request is handed to the route
// directly, with the very headers and body the play would send, on a store that stops at the first use: when
// it throws NotWrittenYet, the play would have ended the same way, and the test says so without HTTP or
// PostgreSQL. A route that answers, or reaches for the store, is played for real, and not asked again this run.
import {
	defaultRetention,
	hour,
	maxBodyBytes,
	routePaths,
	type EndpointOptions,
	type Remember,
	type Store
} from './contract.ts';
import { Plan } from './faults.ts';
import { bodyOf, scheduleStart, type EndpointCode } from './play.ts';
import type { EndpointSchedule } from './schedules.ts';
import { NotWrittenYet } from '../todo.ts';

export type Stubbed = { at: 'building the routes' | 'request 1'; path: string; error: NotWrittenYet };

class StoreNotReached extends Error {}
const stopsAtFirstUse: Store = {
	transaction: async () => {
		throw new StoreNotReached('the stub check stops where the store is used');
	}
};

// The routes found written in this run: each is handed one request at most, then always played for real.
const written = new WeakSet<EndpointCode['tickets']>();

export async function stubbedAtFirstSend(
	code: EndpointCode,
	schedule: EndpointSchedule,
	remember: Remember
): Promise<Stubbed | null> {
	const at = schedule.steps.findIndex((step) => step.do === 'send');
	const first = schedule.steps[at];
	if (!first || first.do !== 'send') return null;
	// The clock as the play has it at its first request: moved on by the waits before it.
	const waited = schedule.steps
		.slice(0, at)
		.reduce((minutes, step) => minutes + (step.do === 'wait' ? step.minutes : 0), 0);
	const factory = code[first.route];
	const path = routePaths[first.route];
	const body = bodyOf(first);
	if (written.has(factory) || Buffer.byteLength(body) > maxBodyBytes) return null;
	const options: EndpointOptions = {
		store: stopsAtFirstUse,
		remember,
		retention: schedule.retentionHours === undefined ? defaultRetention : schedule.retentionHours * hour,
		now: () => new Date(scheduleStart + waited * 60_000),
		tenant: 'acme'
	};
	let route;
	try {
		// Both, as the play's server builds both before its first request.
		const routes = { tickets: code.tickets(options), webhooks: code.webhooks(options) };
		route = routes[first.route];
	} catch (error) {
		if (error instanceof NotWrittenYet) return { at: 'building the routes', path, error };
		return null;
	}
	const headers: Record<string, string> = { 'content-type': first.contentType ?? 'application/json' };
	if (first.key !== undefined) headers['idempotency-key'] = first.key;
	const request = new Request(`http://127.0.0.1${path}`, { method: 'POST', headers, body });
	try {
		await new Plan(first.fault).run(() => route(request));
	} catch (error) {
		if (error instanceof NotWrittenYet) return { at: 'request 1', path, error };
	}
	written.add(factory);
	return null;
}
