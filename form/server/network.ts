// The network between the page and the endpoint: a loopback proxy that does to the next requests what the
// control panel asked for.
//
//   const network = new Network(backend.url);
//   network.next({ do: 'lose' });              // the next request reaches the endpoint; its answer never comes back
//   network.forward(request, response);        // from the page server, for every /api/ request
//   network.exchanges                           // what happened to each request, for the panel and the journeys
//
// Fates, each used up by one request, in the order they were asked for:
//   lose          the endpoint handles it, then the connection is cut before the answer: fetch() rejects
//   delay ms      the endpoint handles it, and the answer is held for ms before it goes back
//   answer 500    the endpoint handles it, and a gateway answers 500 instead: the work may well be done
//   answer 409    never passed on: answered the way an endpoint does while that key is still being worked on
// With nothing asked for, a request goes through untouched.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { readBody } from '#harness/endpoint/server.ts';

export type Fate = { do: 'lose' } | { do: 'delay'; ms: number } | { do: 'answer'; status: 500 | 409 };

export type Exchange = {
	number: number;
	key: string | null;
	body: unknown;
	fate: string;
	// What the endpoint answered, or null when the request was never passed on (or not yet answered).
	server: number | null;
	// Whether the endpoint's answer was a saved one handed back again (its Idempotent-Replayed header).
	replayed: boolean;
	// What reached the page: a status, 'lost', or null while it is on its way.
	page: number | 'lost' | null;
};

export function saidFate(fate: Fate | null): string {
	if (fate === null) return 'through';
	if (fate.do === 'lose') return 'answer lost';
	if (fate.do === 'delay') return `answer delayed ${fate.ms / 1000} s`;
	return fate.status === 500 ? 'answer replaced by 500' : '409 without passing it on';
}

export function isFate(value: unknown): value is Fate {
	const fate = value as Fate | null;
	if (fate === null || typeof fate !== 'object') return false;
	if (fate.do === 'lose') return true;
	if (fate.do === 'delay') return Number.isInteger(fate.ms) && fate.ms >= 0 && fate.ms <= 60_000;
	return fate.do === 'answer' && (fate.status === 500 || fate.status === 409);
}

type Answered = { status: number; headers: Record<string, string>; body: Buffer };

export class Network {
	queue: Fate[] = [];
	exchanges: Exchange[] = [];
	private timers = new Set<NodeJS.Timeout>();

	constructor(private target: string) {}

	next(fate: Fate): void {
		this.queue.push(fate);
	}

	clear(): void {
		this.queue = [];
	}

	// A fresh start for the next journey: a new endpoint behind, nothing queued, nothing written down.
	reset(target: string): void {
		this.target = target;
		this.queue = [];
		this.exchanges = [];
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	async forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
		const body = await readBody(incoming, Infinity);
		const fate = this.queue.shift() ?? null;
		const key = incoming.headers['idempotency-key'];
		const exchange: Exchange = {
			number: this.exchanges.length + 1,
			key: typeof key === 'string' ? key : null,
			body: parse(body),
			fate: saidFate(fate),
			server: null,
			replayed: false,
			page: null
		};
		this.exchanges.push(exchange);
		if (fate?.do === 'answer' && fate.status === 409)
			return this.answer(exchange, outgoing, problem(409, 'a request with this key is still in progress'));
		const answered = await this.pass(incoming, body);
		exchange.server = answered.status;
		exchange.replayed = answered.headers['idempotent-replayed'] === 'true';
		if (fate?.do === 'lose') {
			exchange.page = 'lost';
			outgoing.socket?.destroy();
			return;
		}
		if (fate?.do === 'answer')
			return this.answer(exchange, outgoing, problem(500, 'the gateway gave up waiting for the server'));
		if (fate?.do === 'delay') await this.wait(fate.ms);
		this.answer(exchange, outgoing, answered);
	}

	private answer(exchange: Exchange, outgoing: ServerResponse, answered: Answered): void {
		if (outgoing.destroyed) {
			exchange.page = 'lost'; // The page went away (a reload, a closed tab) before the answer came back.
			return;
		}
		exchange.page = answered.status;
		outgoing.writeHead(answered.status, answered.headers);
		outgoing.end(answered.body);
	}

	private wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}

	private pass(incoming: IncomingMessage, body: Buffer): Promise<Answered> {
		const headers = { ...incoming.headers, host: new URL(this.target).host, connection: 'close' };
		return new Promise((resolve) => {
			const out = httpRequest(new URL(incoming.url ?? '/', this.target), {
				method: incoming.method,
				headers,
				agent: false
			});
			out.on('response', async (response) => {
				const answer = await readBody(response, Infinity);
				const kept = Object.entries(response.headers).filter(
					([name, value]) => typeof value === 'string' && !hopByHop.has(name)
				) as [string, string][];
				resolve({ status: response.statusCode ?? 502, headers: Object.fromEntries(kept), body: answer });
			});
			out.on('error', (error) =>
				resolve(problem(502, `the endpoint could not be reached: ${error.message}`))
			);
			out.end(body);
		});
	}
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function problem(status: number, title: string): Answered {
	return {
		status,
		headers: { 'content-type': 'application/problem+json' },
		body: Buffer.from(JSON.stringify({ title, status }))
	};
}

function parse(body: Buffer): unknown {
	try {
		return JSON.parse(body.toString());
	} catch {
		return body.toString();
	}
}
