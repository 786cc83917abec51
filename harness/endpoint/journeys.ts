// 04's client journeys replayed end to end: the key store's code drives real fetch() through a loopback proxy
// to exercise 06's endpoint on PostgreSQL, and judge-client.ts judges them as it judges them against the fake.
//
//   const played = await playJourneyOverHttp(journey, keyStoreCode, endpointCode, 'successes', postgresUrl);
//   judgeJourney(journey, played);                  // judge-client.ts: null, or the story
//   judgeJourney(triedAgainstEverything(journey), await playJourneyOverHttp(…, 'everything', …));
//
// The proxy (proxy.ts) stands for the network: it drops a request before the server sees it
// ('request-lost'), or lets the server handle it and drops the answer ('answer-lost'), and remembers every
// answer the server gave, so the judge compares what the endpoint said even when the form never heard it.
// 'held' holds the request on the server just before its first write (it has its key's lock, so a second
// request with the key gets 409); 'server-fails' makes the ticket's insert fail, and the endpoint's remember
// policy decides the rest.
import type { ClientJourney, Fate, Step } from '../client/journeys.ts';
import {
	keyStoreClient,
	newKeyPerAttempt,
	onTheWire,
	type ClientMaker,
	type KeyStoreCode,
	type Played,
	type PlayedStep,
	type SentRequest
} from '../client/play.ts';
import { Tab } from '../client/tab.ts';
import type { Answer, FormState } from '../client/model.ts';
import { defaultRetention, routePaths, type EndpointOptions, type Remember, type Route } from './contract.ts';
import { Plan } from './faults.ts';
import { within, type EndpointCode } from './play.ts';
import { answerLimitMs, scheduleStart } from './schedules.ts';
import { storeFor, type PostgresUrl } from './store-on-first-use.ts';
import { fetchThrough, startProxy, type Proxy } from './proxy.ts';
import { serve, type Served } from './server.ts';
import { stubAtFirstRequest } from './stub-check.ts';

type InFlight = SentRequest & { form: string; page: number; answer: Promise<Answer> | null; plan: Plan };

// A journey under way over HTTP: the tab, the routes built on the store, the requests sent, and the network
// (the server and the proxy in front of it), which starts with the first request that goes out, unless its
// route is a stub.
type OverHttp = {
	tab: Tab;
	endpoint: EndpointCode;
	options: EndpointOptions;
	routes: Record<string, Route>;
	network: { server: Served; proxy: Proxy } | null;
	requests: InFlight[];
	stubThrown: Served['thrown'];
};

// The journey step by step: what each step showed, what crossed the wire, and the tickets left in the tables.
export async function playJourneyOverHttp(
	journey: ClientJourney,
	code: KeyStoreCode,
	endpoint: EndpointCode,
	remember: Remember,
	postgresUrl: PostgresUrl
): Promise<Played & { thrown: Served['thrown'] }> {
	const store = await storeFor(postgresUrl);
	const run = overHttp(journey, code, endpoint, { store, remember });
	const steps: PlayedStep[] = [];
	let current = -1;
	let threw: Played['threw'] = null;
	try {
		run.tab.open();
		for (const [i, step] of journey.steps.entries()) {
			current = i;
			let sent: InFlight | null = null;
			let locked = false;
			if (step.do === 'send') sent = await sendOverHttp(run, step);
			else if (step.do === 'release') await releaseOverHttp(run, step);
			else locked = run.tab.play(step);
			// The journey's first request met a stub: it ends there, as the server would have thrown.
			if (run.stubThrown.length > 0) break;
			steps.push({ request: sent, shows: run.tab.shows(), locked });
		}
	} catch (error) {
		threw = { step: current, error };
	}
	try {
		const { tickets } = await store.contents();
		const thrown = run.network?.server.thrown ?? run.stubThrown;
		return { steps, events: run.tab.events, requests: run.requests, tickets, threw, thrown };
	} finally {
		await run.network?.server.close();
		await run.network?.proxy.close();
	}
}

// The tab with the journey's client on it, and the learner's routes on the store. They are built before the
// tab opens: a route that throws while it is built ends the journey here.
function overHttp(
	journey: ClientJourney,
	code: KeyStoreCode,
	endpoint: EndpointCode,
	{ store, remember }: Pick<EndpointOptions, 'store' | 'remember'>
): OverHttp {
	const makers: Record<ClientJourney['client'], ClientMaker> = {
		'key-store': keyStoreClient(code),
		'new-key-per-attempt': newKeyPerAttempt
	};
	const options = {
		store,
		remember,
		retention: defaultRetention,
		now: () => new Date(scheduleStart),
		tenant: 'acme'
	};
	const routes = {
		[routePaths.tickets]: endpoint.tickets(options),
		[routePaths.webhooks]: endpoint.webhooks(options)
	};
	const tab = new Tab(journey, makers[journey.client]);
	return { tab, endpoint, options, routes, network: null, requests: [], stubThrown: [] };
}

// What a fate asks of the server: a held request waits just before its first write; server-fails makes the
// ticket's insert fail.
const serverFaults: Partial<Record<Fate, Plan['fault']>> = {
	held: 'held-before-writes',
	'server-fails': 'step-fails'
};

// The form sends: its code gives the key and the body, and the request goes out through the proxy, unless it
// is the first to reach a route that is still a stub. A held request is left before its work; any other is
// answered (or not) before the next step.
async function sendOverHttp(run: OverHttp, step: Step): Promise<InFlight> {
	const onPage = run.tab.form(step.form!);
	onPage.shows = { kind: 'sending' } satisfies FormState;
	const { key, body } = onPage.client.send({ ...onPage.fields });
	const number = run.requests.length + 1;
	const wire = onTheWire(body);
	const plan = new Plan(serverFaults[step.fate!] ?? 'none');
	const sent: InFlight = {
		number,
		key,
		body: wire,
		reply: null,
		form: step.form!,
		page: run.tab.page,
		answer: null,
		plan
	};
	run.requests.push(sent);
	run.tab.events.push({ sent: number });
	// A lost request never reaches a route: only one that arrives can meet a stub.
	if (!run.network && step.fate !== 'request-lost') {
		const stub = await stubAtFirstRequest(run.endpoint.tickets, run.options, plan.fault);
		if (stub) {
			run.stubThrown.push({ path: routePaths.tickets, request: number, error: stub });
			return sent;
		}
	}
	run.network ??= await startNetwork(run.routes);
	run.network.server.plans.set(String(number), plan);
	run.network.proxy.fates.set(number, step.fate!);
	sent.answer = fetchThrough(run.network.proxy.url, number, key, wire);
	if (step.fate === 'held')
		await within(
			Promise.race([plan.reachedHold, sent.answer]),
			answerLimitMs,
			`request ${number} never started its work`
		);
	else await settleOverHttp(run, sent);
	return sent;
}

// The endpoint on its own loopback port, and the proxy in front of it.
async function startNetwork(routes: Record<string, Route>): Promise<{ server: Served; proxy: Proxy }> {
	const server = await serve(routes);
	return { server, proxy: await startProxy(server.url) };
}

// A held request let go on with its work; its answer meets the fate the release gives it.
async function releaseOverHttp(run: OverHttp, step: Step): Promise<void> {
	const request = run.requests[step.number! - 1]!;
	run.network!.proxy.fates.set(request.number, step.fate!);
	request.plan.release();
	await settleOverHttp(run, request);
}

// What the form hears (within the limit), and what the server really said, as the proxy saw it.
async function settleOverHttp(run: OverHttp, request: InFlight): Promise<void> {
	const heard = await within(request.answer!, answerLimitMs, `request ${request.number} got no answer`);
	request.reply = run.network!.proxy.replies.get(request.number) ?? null;
	run.tab.deliver(request, heard);
}

// The same journey against a server that remembers everything (Stripe): once the ticket's insert failed for a
// key, every later request with that key gets the saved 500 back, replayed; the form stays unsure, and the
// ticket that Try again made against the other kind of server is never made.
export function triedAgainstEverything(journey: ClientJourney): ClientJourney {
	const failed = new Set<string>();
	const lostTickets = new Set<number>();
	const steps = journey.steps.map((step) => {
		if (step.do !== 'send') return step;
		const request = step.request!;
		if (step.fate === 'server-fails') {
			failed.add(request.key);
			return step;
		}
		if (!failed.has(request.key) || request.reply === null) return step;
		if (request.reply.ticketId !== null) lostTickets.add(request.reply.ticketId);
		return {
			...step,
			request: { ...request, reply: { status: 500, ticketId: null, replayed: true } },
			shows: { ...step.shows, [step.form!]: { kind: 'unsure', status: 500 } satisfies FormState }
		};
	});
	const tickets = journey.tickets.filter((ticket) => !lostTickets.has(ticket.id));
	if (tickets.some((ticket, i) => ticket.id !== i + 1))
		throw new Error(
			`journey "${journey.name}": can't say what a server that remembers everything would number`
		);
	return {
		...journey,
		story: `${journey.story} Against a server that remembers everything, Try again gets the saved 500 back instead, every time.`,
		steps,
		tickets
	};
}
