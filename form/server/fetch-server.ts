// Serves a Fetch-API handler, `(request: Request) => Promise<Response>`, over real HTTP on loopback.
//
//   const served = await serveFetch(handler);   // http://127.0.0.1:<free port>
//   try { await fetch(`${served.url}/api/tickets`, …) } finally { await served.stop(); }
//
// The handler never sees node:http: it gets a standard Request and returns a standard Response, the shape of
// exercise 06's endpoint. A handler that throws answers 500 and the server keeps serving. stop() closes every
// connection at once, so nothing is left listening.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FetchHandler = (request: Request) => Promise<Response>;
export type Served = { url: string; stop: () => Promise<void> };

export async function readBody(message: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of message) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

export function toRequest(message: IncomingMessage, body: Buffer, origin: string): Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(message.headers))
		for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
			headers.append(name, one);
	const method = message.method ?? 'GET';
	const hasBody = method !== 'GET' && method !== 'HEAD';
	return new Request(new URL(message.url ?? '/', origin), {
		method,
		headers,
		body: hasBody ? new Uint8Array(body) : null
	});
}

export async function writeResponse(response: Response, to: ServerResponse): Promise<void> {
	const body = Buffer.from(await response.arrayBuffer());
	to.writeHead(response.status, Object.fromEntries(response.headers));
	to.end(body);
}

export function serveFetch(handler: FetchHandler): Promise<Served> {
	const server = createServer(async (message, response) => {
		try {
			const request = toRequest(message, await readBody(message), url);
			await writeResponse(await handler(request), response);
		} catch (error) {
			response.writeHead(500, { 'content-type': 'text/plain' });
			response.end(`the handler threw: ${String(error)}`);
		}
	});
	let url = '';
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			resolve({
				url,
				stop: () =>
					new Promise((done) => {
						server.closeAllConnections();
						server.close(() => done());
					})
			});
		});
	});
}
