// 04's client journeys replayed end to end: the key store's code drives real fetch() through a loopback proxy
// to exercise 06's endpoint on PostgreSQL, and judge-client.ts judges them as it judges them against the fake.
//
//   const played = await playJourneyOverHttp(journey, keyStoreCode, endpointCode, 'successes', postgresUrl);
//   judgeJourney(journey, played);                  // judge-client.ts: null, or the story
//   judgeJourney(triedAgainstEverything(journey), await playJourneyOverHttp(…, 'everything', …));
//
// The proxy stands for the network: it drops a request before the server sees it ('request-lost'), or lets
// the server handle it and drops the answer ('answer-lost'), and remembers every answer the server gave, so
// the judge compares what the endpoint said even when the form never heard it. 'held' holds the request on the
// server just before its first write (it has its key's lock, so a second request with the key gets 409);
// 'server-fails' makes the ticket's insert fail, and the endpoint's remember policy decides the rest.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientJourney, Fate } from '../client/journeys.ts';
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
import type { Reply } from '../client/fake-endpoint.ts';
import { defaultRetention, routePaths, type Remember } from './contract.ts';
import { Plan } from './faults.ts';
import { within, type EndpointCode } from './play.ts';
import { answerLimitMs, scheduleStart } from './schedules.ts';
import { storeFor, type PostgresUrl } from './store-on-first-use.ts';
import { planHeader, serve, type Served } from './server.ts';
import { stubAtFirstRequest } from './stub-check.ts';

type Proxy = {
	url: string;
	fates: Map<number, Fate>;
	replies: Map<number, Reply>;
	close: () => Promise<void>;
};

function replyOf(
	status: number,
	headers: Record<string, string | string[] | undefined>,
	body: string
): Reply {
	let parsed: { id?: unknown; detail?: unknown; title?: unknown } = {};
	try {
		parsed = JSON.parse(body) ?? {};
	} catch {}
	return {
		status,
		ticketId: status >= 200 && status < 300 && typeof parsed.id === 'number' ? parsed.id : null,
		replayed: headers['idempotent-replayed'] === 'true',
		reason: String(parsed.detail ?? parsed.title ?? '')
	};
}

// The network between the form and the endpoint, on a loopback port of its own.
async function startProxy(target: string): Promise<Proxy> {
	const fates = new Map<number, Fate>();
	const replies = new Map<number, Reply>();
	const server = createServer((incoming, outgoing) => {
		const number = Number(incoming.headers[planHeader]);
		if (fates.get(number) === 'request-lost') {
			incoming.socket.destroy();
			return;
		}
		const forward = httpRequest(
			`${target}${incoming.url}`,
			{ method: incoming.method, headers: incoming.headers, agent: false },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					const body = Buffer.concat(chunks);
					replies.set(number, replyOf(answer.statusCode ?? 0, answer.headers, body.toString()));
					// Handled, and the answer never reaches the form.
					if (fates.get(number) === 'answer-lost') return incoming.socket.destroy();
					outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, connection: 'close' });
					outgoing.end(body);
				});
			}
		);
		forward.on('error', () => incoming.socket.destroy());
		incoming.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		fates,
		replies,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

// What the form's fetch() brings back: a reply it can read, or nothing at all.
async function send(url: string, number: number, key: unknown, body: unknown): Promise<Answer> {
	const headers: Record<string, string> = {
		'Content-Type': 'application/json',
		[planHeader]: String(number)
	};
	if (typeof key === 'string') headers['Idempotency-Key'] = key;
	try {
		const response = await fetch(`${url}${routePaths.tickets}`, {
			method: 'POST',
			headers,
			body: JSON.stringify(body)
		});
		const reply = replyOf(response.status, Object.fromEntries(response.headers), await response.text());
		return { kind: 'reply', status: reply.status, ticketId: reply.ticketId };
	} catch {
		return { kind: 'no-answer' };
	}
}

type InFlight = SentRequest & { form: string; page: number; answer: Promise<Answer> | null; plan: Plan };

export async function playJourneyOverHttp(
	journey: ClientJourney,
	code: KeyStoreCode,
	endpoint: EndpointCode,
	remember: Remember,
	postgresUrl: PostgresUrl
): Promise<Played & { thrown: Served['thrown'] }> {
	const makers: Record<ClientJourney['client'], ClientMaker> = {
		'key-store': keyStoreClient(code),
		'new-key-per-attempt': newKeyPerAttempt
	};
	const maker = makers[journey.client];
	const store = await storeFor(postgresUrl);
	const options = {
		store,
		remember,
		retention: defaultRetention,
		now: () => new Date(scheduleStart),
		tenant: 'acme'
	};
	// Built before the tab opens: a route that throws while it is built ends the journey here.
	const routes = {
		[routePaths.tickets]: endpoint.tickets(options),
		[routePaths.webhooks]: endpoint.webhooks(options)
	};
	// The server and the proxy start with the first request that goes out, unless its route is a stub.
	let network: { server: Served; proxy: Proxy } | null = null;
	const stubThrown: Served['thrown'] = [];
	const tab = new Tab(journey, maker);
	const requests: InFlight[] = [];
	const steps: PlayedStep[] = [];
	async function settle(request: InFlight) {
		const heard = await within(request.answer!, answerLimitMs, `request ${request.number} got no answer`);
		request.reply = network!.proxy.replies.get(request.number) ?? null;
		tab.deliver(request, heard);
	}

	let current = -1;
	let threw: Played['threw'] = null;
	try {
		tab.open();
		for (const [i, step] of journey.steps.entries()) {
			current = i;
			let sent: InFlight | null = null;
			let locked = false;
			switch (step.do) {
				case 'send': {
					const onPage = tab.form(step.form!);
					onPage.shows = { kind: 'sending' } satisfies FormState;
					const { key, body } = onPage.client.send({ ...onPage.fields });
					const number = requests.length + 1;
					const wire = onTheWire(body);
					const faults: Partial<Record<Fate, Plan['fault']>> = {
						held: 'held-before-writes',
						'server-fails': 'step-fails'
					};
					const plan = new Plan(faults[step.fate!] ?? 'none');
					sent = {
						number,
						key,
						body: wire,
						reply: null,
						form: step.form!,
						page: tab.page,
						answer: null,
						plan
					};
					requests.push(sent);
					tab.events.push({ sent: number });
					// A lost request never reaches a route: only one that arrives can meet a stub.
					if (!network && step.fate !== 'request-lost') {
						const stub = await stubAtFirstRequest(endpoint.tickets, options, plan.fault);
						if (stub) {
							stubThrown.push({ path: routePaths.tickets, request: number, error: stub });
							break;
						}
					}
					if (!network) {
						const server = await serve(routes);
						network = { server, proxy: await startProxy(server.url) };
					}
					network.server.plans.set(String(number), plan);
					network.proxy.fates.set(number, step.fate!);
					sent.answer = send(network.proxy.url, number, key, wire);
					if (step.fate === 'held')
						await within(
							Promise.race([plan.reachedHold, sent.answer]),
							answerLimitMs,
							`request ${number} never started its work`
						);
					else await settle(sent);
					break;
				}
				case 'release': {
					const request = requests[step.number! - 1]!;
					network!.proxy.fates.set(request.number, step.fate!);
					request.plan.release();
					await settle(request);
					break;
				}
				default:
					locked = tab.play(step);
			}
			// The journey's first request met a stub: it ends there, as the server would have thrown.
			if (stubThrown.length > 0) break;
			steps.push({ request: sent, shows: tab.shows(), locked });
		}
		current = journey.steps.length;
	} catch (error) {
		threw = { step: current, error };
	}
	try {
		const { tickets } = await store.contents();
		return {
			steps,
			events: tab.events,
			requests,
			tickets,
			threw,
			thrown: network?.server.thrown ?? stubThrown
		};
	} finally {
		await network?.server.close();
		await network?.proxy.close();
	}
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
