// bodies.ts against the Fetch API's own reading: for every kind of body, bodyText gives what text() gives and
// bodyBytes what arrayBuffer() gives (or the same error), and the message is left as the read leaves it.
import { describe, expect, test, vi } from 'vitest';
import { bodyBytes, bodyText } from './bodies.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const url = 'http://workbook.test/api/tickets';
const streamOf = (text: string) =>
	new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(new TextEncoder().encode(text));
			controller.close();
		}
	});

// Each makes a fresh message: one is read by the Fetch API, its twin by bodies.ts.
const messages: Record<string, () => Request | Response> = {
	'a string': () => new Response('{"id":1}', { status: 201 }),
	'an empty string': () => new Response(''),
	'a string with a byte order mark': () => new Response('\uFEFF{"id":1}'),
	'a string with a lone surrogate': () => new Response('{"subject":"\uD800"}'),
	'a string with an emoji': () => new Response('{"subject":"😀"}'),
	bytes: () => new Response(bytes(123, 125)),
	'bytes that are not UTF-8': () => new Response(bytes(0xff, 0xfe, 0x41)),
	'bytes with a byte order mark': () => new Response(bytes(0xef, 0xbb, 0xbf, 0x41)),
	'an ArrayBuffer': () => new Response(bytes(65, 66).buffer),
	'Response.json': () => Response.json({ subject: 'Printer on fire' }),
	'no body': () => new Response(null, { status: 204 }),
	'Response.error': () => Response.error(),
	'a stream': () => new Response(streamOf('{"from":"a stream"}')),
	'a Blob': () => new Response(new Blob(['{"from":"a blob"}'])),
	URLSearchParams: () => new Response(new URLSearchParams({ a: '1' })),
	'a clone': () => new Response('{"cloned":true}').clone(),
	// The clone's reading moves the bytes' buffer away (detached) from under the original.
	'bytes, after a clone read': () => {
		const response = new Response(bytes(123, 125));
		void response.clone().text();
		return response;
	},
	'a request with bytes, after a clone read': () => {
		const request = new Request(url, { method: 'POST', body: bytes(123, 125) });
		void request.clone().text();
		return request;
	},
	'read already': () => {
		const response = new Response('{"id":1}');
		void response.text();
		return response;
	},
	locked: () => {
		const response = new Response('{"id":1}');
		response.body!.getReader();
		return response;
	},
	'a request with a string': () => new Request(url, { method: 'POST', body: '{"subject":"x"}' }),
	'a request with bytes': () =>
		new Request(url, { method: 'POST', body: bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d) }),
	'a request from a request': () => new Request(new Request(url, { method: 'POST', body: '{"a":1}' })),
	'a request with no body': () => new Request(url)
};

type Read = { value?: string | number[]; error?: string };
const outcome = async (read: () => Promise<string | Uint8Array>): Promise<Read> => {
	try {
		const value = await read();
		return { value: typeof value === 'string' ? value : [...value] };
	} catch (error) {
		return { error: String(error) };
	}
};
// What a reader of the message sees once it was read: used, locked, and what reading it again gives.
const leftAs = async (message: Request | Response) => ({
	used: message.bodyUsed,
	locked: message.body?.locked ?? null,
	again: await outcome(() => message.text())
});

describe('a body read by bodies.ts reads as the Fetch API reads it', () => {
	for (const [name, make] of Object.entries(messages)) {
		test(`${name}: bodyText is text()`, async () => {
			const [fetched, ours] = [make(), make()];
			expect(await outcome(() => bodyText(ours)), name).toEqual(await outcome(() => fetched.text()));
			expect(await leftAs(ours), name).toEqual(await leftAs(fetched));
		});
		test(`${name}: bodyBytes is arrayBuffer()`, async () => {
			const [fetched, ours] = [make(), make()];
			const reference = await outcome(async () => new Uint8Array(await fetched.arrayBuffer()));
			expect(await outcome(() => bodyBytes(ours)), name).toEqual(reference);
			expect(await leftAs(ours), name).toEqual(await leftAs(fetched));
		});
	}
});

// The point of bodies.ts: where a body was made from a string or bytes, its stream is not read. (A Node whose
// Fetch keeps its state elsewhere fails here, not in any judge: everything is then read the slow way.)
test('a body made from a string or bytes is taken as it was made, its stream never read', async () => {
	for (const name of [
		'a string',
		'bytes',
		'Response.json',
		'a request with a string',
		'a request with bytes'
	]) {
		const [forText, forBytes] = [messages[name]!(), messages[name]!()];
		const text = vi.spyOn(forText, 'text');
		const arrayBuffer = vi.spyOn(forBytes, 'arrayBuffer');
		await bodyText(forText);
		await bodyBytes(forBytes);
		expect([text.mock.calls.length, arrayBuffer.mock.calls.length], name).toEqual([0, 0]);
	}
});
