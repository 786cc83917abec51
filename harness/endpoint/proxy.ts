// The network of 04's journeys over HTTP (journeys.ts): a proxy on a loopback port of its own between the
// form and exercise 06's endpoint, and the form's fetch() through it.
//
//   const proxy = await startProxy(server.url);
//   proxy.fates.set(3, 'answer-lost');            // request 3 (its Workbook-Request header) loses its answer
//   await fetchThrough(proxy.url, 3, key, body);  // { kind: 'reply', … } | { kind: 'no-answer' }
//   proxy.replies.get(3);                         // what the server said, even when the form never heard it
//   await proxy.close();
//
// 'request-lost' drops the request before the server sees it; 'answer-lost' lets the server handle it and
// drops the answer. Every answer the server gave is remembered, so the judge compares what the endpoint said.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fate } from '../client/journeys.ts';
import { formAuthorization, type Answer } from '../client/model.ts';
import type { Reply } from '../client/fake-endpoint.ts';
import { routePaths } from './contract.ts';
import { planHeader } from './server.ts';

export type Proxy = {
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
export async function startProxy(target: string): Promise<Proxy> {
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

// What the form's fetch() brings back through the proxy: a reply it can read, or nothing at all.
export async function fetchThrough(
	url: string,
	number: number,
	key: unknown,
	body: unknown
): Promise<Answer> {
	const headers: Record<string, string> = {
		'Content-Type': 'application/json',
		Authorization: formAuthorization,
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
