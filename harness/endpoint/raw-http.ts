// One HTTP/1.1 request written byte for byte on a TCP socket, and the answer read back: what a client that
// Node's fetch and node:http would stop can send (a DEL or a NUL in a header, two lines of one header, UTF-8
// bytes in a header), reaching the server as it is.
//
//   const answer = await sendRaw('http://127.0.0.1:8080', {
//   	path: '/api/tickets', headers: [['Idempotency-Key', 'k\x7f1']], body: Buffer.from('{}')
//   });
//   answer;   // { status, headers: [['content-type', 'application/problem+json'], …], body }, or null
//
// Each header's value is written as its UTF-8 bytes, as Go's client writes a string. The request says
// Connection: close, and the answer is everything the server writes until it closes: null when it closed
// with no status line (a worker that died, or an answer dropped on purpose). A chunked body is joined.
import { connect } from 'node:net';

export type RawRequest = { path: string; headers: [string, string][]; body: Buffer };
export type RawAnswer = { status: number; headers: [string, string][]; body: Buffer };

export function requestBytes(url: string, request: RawRequest): Buffer {
	const { host } = new URL(url);
	const head = [
		`POST ${request.path} HTTP/1.1`,
		`Host: ${host}`,
		'Connection: close',
		`Content-Length: ${request.body.length}`,
		...request.headers.map(([name, value]) => `${name}: ${value}`)
	];
	return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'utf8'), request.body]);
}

function unchunked(body: Buffer): Buffer {
	const parts: Buffer[] = [];
	let at = 0;
	for (;;) {
		const end = body.indexOf('\r\n', at);
		if (end < 0) break;
		const size = parseInt(body.subarray(at, end).toString('latin1'), 16);
		if (!(size > 0)) break;
		parts.push(body.subarray(end + 2, end + 2 + size));
		at = end + 2 + size + 2;
	}
	return Buffer.concat(parts);
}

// The answer in these bytes, or null when they hold no complete head.
export function parseAnswer(bytes: Buffer): RawAnswer | null {
	const split = bytes.indexOf('\r\n\r\n');
	if (split < 0) return null;
	const [statusLine, ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
	const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
	if (!status) return null;
	const headers = lines.map((line): [string, string] => {
		const colon = line.indexOf(':');
		return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
	});
	let body = bytes.subarray(split + 4);
	const header = (name: string) => headers.find(([n]) => n === name)?.[1];
	if (header('transfer-encoding')?.toLowerCase() === 'chunked') body = unchunked(body);
	else if (header('content-length') !== undefined) body = body.subarray(0, Number(header('content-length')));
	return { status: Number(status[1]), headers, body: Buffer.from(body) };
}

// Sends the request and resolves with the answer, or null; a server that neither answers nor closes within
// limitMs is an error, so a hang is reported and never waited out.
export function sendRaw(url: string, request: RawRequest, limitMs = 10_000): Promise<RawAnswer | null> {
	const { hostname, port } = new URL(url);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const socket = connect({ host: hostname, port: Number(port) });
		const timer = setTimeout(() => {
			socket.destroy();
			reject(new Error(`no answer from ${url} within ${limitMs} ms`));
		}, limitMs);
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		// A reset after the answer (a server that closes while the rest of a body is unread) keeps the answer.
		socket.on('error', () => undefined);
		socket.on('close', () => {
			clearTimeout(timer);
			resolve(parseAnswer(Buffer.concat(chunks)));
		});
		// Written, not ended: Go's server takes a client's half-close as a hang-up, and cancels the request.
		socket.write(requestBytes(url, request));
	});
}
