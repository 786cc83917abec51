// Serves exercise 06's routes over real HTTP on a loopback port, with node:http and nothing else.
//
//   const server = await serve({ '/api/tickets': tickets(options), '/webhooks': webhooks(options) });
//   server.plans.set('3', new Plan('held'));  // what happens to the request sent with "Workbook-Request: 3"
//   await fetch(`${server.url}/api/tickets`, { method: 'POST', headers: { 'Workbook-Request': '3', … }, body });
//   server.thrown;                            // errors a route threw, each answered with a 500
//   await server.close();
//
// The server turns each request into a Fetch-API Request, runs the route inside the request's Plan (faults.ts),
// and writes the Response back. It reads at most maxBodyBytes of a body (a longer one gets 413 before the route
// sees it), serves GET /exercises/06-ticket-endpoint/README.md (where refusals link), answers 404 for another
// path and 405 for another method, refuses a control character in a header as
// problem+json before any route (header-guard.ts: Node's parser would answer a bare 400), and drops the connection without an
// answer when the plan crashed the worker or loses the answer after the commit. Workbook-* headers are the
// harness's: the route never sees them. Connections are not kept alive (each answer says Connection: close), so a
// dropped one takes nothing else; serve(routes, { keepAlive: true }) keeps them for its own client, server.agent,
// where each request in flight holds a connection of its own and a dropped one still takes only its request.
// close() waits (up to a limit) for the route calls still running, so none writes into the next test's tables.
import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { workbookRoot } from '../core/manifest.ts';
import { maxBodyBytes, problem, refuse, rules, type Route } from './contract.ts';
import { answerBytes, controlCharacterRule } from './header-guard.ts';
import { Plan } from './faults.ts';
import { bodyBytes } from './bodies.ts';

export type Served = {
	url: string;
	plans: Map<string, Plan>;
	// Errors a route threw, with the Workbook-Request number of the request it was answering.
	thrown: { path: string; request: number | null; error: unknown }[];
	close: () => Promise<void>;
	// The client to send with: connections kept alive when served with keepAlive, else one a request.
	agent: Agent | false;
};

export const planHeader = 'workbook-request';

class TooLarge extends Error {}

// The whole body of a request (or a response), refused once it grows past limit: the form's network reads
// any size and leaves the refusing to the endpoint.
export function readBody(incoming: IncomingMessage, limit = maxBodyBytes): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		incoming.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				incoming.removeAllListeners('data');
				incoming.resume();
				reject(new TooLarge());
			} else chunks.push(chunk);
		});
		incoming.on('end', () => resolve(Buffer.concat(chunks)));
		incoming.on('error', reject);
	});
}

function toRequest(incoming: IncomingMessage, url: string, body: Buffer): Request {
	const headers = new Headers();
	// Every header line, as sent: node:http's headers would keep only the first of two Authorization lines.
	for (const [name, values] of Object.entries(incoming.headersDistinct)) {
		if (name.startsWith('workbook-') || values === undefined) continue;
		for (const one of values) headers.append(name, one);
	}
	const method = incoming.method ?? 'GET';
	const hasBody = method !== 'GET' && method !== 'HEAD';
	return new Request(new URL(incoming.url ?? '/', url), {
		method,
		headers,
		body: hasBody ? new Uint8Array(body) : undefined
	});
}

async function write(outgoing: ServerResponse, response: Response, keepAlive = false): Promise<void> {
	const bytes = await bodyBytes(response);
	const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => (headers[name] = value));
	const connection = keepAlive ? {} : { connection: 'close' };
	outgoing.writeHead(response.status, { ...headers, 'content-length': body.length, ...connection });
	outgoing.end(body);
}

// A connection for each request costs a connect, an accept and a close on both ends (and a traced call in the
// grader's sandbox): the players' own client keeps them (play.ts). A request saying Connection: close (raw-http.ts)
// still has its connection closed after its answer.
export async function serve(
	routes: Record<string, Route>,
	{ keepAlive = false }: { keepAlive?: boolean } = {}
): Promise<Served> {
	const plans = new Map<string, Plan>();
	const thrown: Served['thrown'] = [];
	const running = new Set<Promise<void>>();
	let url = '';
	const server = createServer((incoming, outgoing) => {
		const call = answer({ routes, plans, thrown, url, keepAlive }, incoming, outgoing)
			.catch((error) => {
				thrown.push({ path: incoming.url ?? '', request: null, error });
				outgoing.socket?.destroy();
			})
			.finally(() => running.delete(call));
		running.add(call);
	});
	server.on('clientError', refuseControlCharacters);
	// An idle kept connection is never closed by the server while the client may be reusing it: only at close().
	if (keepAlive) server.keepAliveTimeout = 0;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const agent = keepAlive ? new Agent({ keepAlive: true }) : false;
	const close = async () => {
		await closeWhenDone(server, plans, running);
		if (agent) agent.destroy();
	};
	return { url, plans, thrown, close, agent };
}

// A request node:http's parser refused: one with a control character in a header is answered as problem+json
// (header-guard.ts); anything else as Node answers it when nobody listens, a bare 400, or not at all.
function refuseControlCharacters(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
	const rule = error.rawPacket ? controlCharacterRule(error.rawPacket) : null;
	if (!socket.writable || error.code === 'ECONNRESET') socket.destroy();
	else if (rule) void answerBytes(refuse(rule)).then((bytes) => socket.end(bytes));
	else socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
}

// One request: 404 for another path, 405 for another method, 413 for a body over the limit; else its route,
// run inside the request's plan. A route that throws is answered 500, and what it threw is kept.
async function answer(
	{
		routes,
		plans,
		thrown,
		url,
		keepAlive
	}: Pick<Served, 'plans' | 'thrown' | 'url'> & { routes: Record<string, Route>; keepAlive: boolean },
	incoming: IncomingMessage,
	outgoing: ServerResponse
): Promise<void> {
	const path = new URL(incoming.url ?? '/', url).pathname;
	// Where every refusal's Link points (contract.ts, readmeLink): 06's README, at its path in the workbook.
	if (incoming.method === 'GET' && path === `/${rules.readme}`) {
		const text = await readFile(join(workbookRoot, rules.readme));
		return write(
			outgoing,
			new Response(text, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } })
		);
	}
	const route = routes[path];
	if (!route) return write(outgoing, problem(404, 'Not Found', `nothing is served at ${path}`));
	if (incoming.method !== 'POST')
		return write(outgoing, problem(405, 'Method Not Allowed', `${path} takes POST`));
	let body: Buffer;
	try {
		body = await readBody(incoming);
	} catch (error) {
		if (!(error instanceof TooLarge)) throw error;
		return write(outgoing, problem(413, 'Content Too Large', `the body is over ${maxBodyBytes} bytes`));
	}
	const id = incoming.headers[planHeader];
	const plan = (typeof id === 'string' && plans.get(id)) || new Plan();
	let response: Response;
	try {
		response = await plan.run(() => route(toRequest(incoming, url, body)));
	} catch (error) {
		if (!plan.crashed) thrown.push({ path, request: typeof id === 'string' ? Number(id) : null, error });
		response = problem(500, 'Internal Server Error', 'the endpoint threw');
	}
	// A dead worker answers nothing; a lost answer was made and never arrives.
	if (plan.crashed || plan.fault === 'after-commit') {
		outgoing.socket?.destroy();
		return;
	}
	await write(outgoing, response, keepAlive);
}

// Every held request let go, the route calls still running waited for (up to a limit), then the server shut.
async function closeWhenDone(
	server: Server,
	plans: Map<string, Plan>,
	running: Set<Promise<void>>
): Promise<void> {
	for (const plan of plans.values()) plan.release();
	let timer: NodeJS.Timeout | undefined;
	const limit = new Promise((resolve) => (timer = setTimeout(resolve, 10_000)));
	await Promise.race([Promise.allSettled([...running]), limit]);
	clearTimeout(timer);
	await new Promise<void>((resolve) => {
		server.closeAllConnections();
		server.close(() => resolve());
	});
}
