// A Fetch body read whole, the cheapest way: what the harness reads of every answer a route makes (calls.ts,
// server.ts) and readJson of every request (contract.ts).
//
//   const text = await bodyText(response);     // what response.text() gives
//   const bytes = await bodyBytes(request);    // the bytes request.arrayBuffer() gives
//
// A body made from a string or from bytes (new Response(text), Response.json, the harness's own requests) keeps
// them beside its stream, and until someone reads the stream they are what it would give. So they are taken as
// they are, and the stream is cancelled through a reader of its own, which leaves the body as a read leaves it:
// locked, used, and unreadable again ("Body is unusable"). Reading the stream itself costs some ten times more:
// a pull, an enqueue, chunks gathered and copied, several promises a body. Any other body (a stream, a Blob, one
// read already or locked, one of another Fetch) is read by text() or arrayBuffer(), which also say every error.
import { Readable } from 'node:stream';

type Body = { stream: ReadableStream<Uint8Array>; source: unknown };
type Message = Request | Response;

const encoder = new TextEncoder();
// text()'s decoding: a leading byte order mark dropped, a malformed sequence read as U+FFFD.
const decoder = new TextDecoder();
// Where undici keeps a message's state; found on a message, as it names no export.
const stateOf = (message: Message) =>
	Object.getOwnPropertySymbols(message).find((symbol) => symbol.description === 'state');
const requestState = stateOf(new Request('http://workbook.test/'));
const responseState = stateOf(new Response(''));

// The text or bytes the body was made from, with the body marked read; undefined where it must be read.
function taken(message: Message): string | Uint8Array | undefined {
	const state =
		message instanceof Response ? responseState : message instanceof Request ? requestState : undefined;
	if (state === undefined) return undefined;
	const body = (message as unknown as Record<symbol, { body?: Body | null } | undefined>)[state]?.body;
	if (!body || !(body.stream instanceof ReadableStream)) return undefined;
	const { source, stream } = body;
	if (typeof source !== 'string' && !(source instanceof Uint8Array)) return undefined;
	// Bytes whose buffer a clone's tee has moved away (detached: its length now 0) are read from the stream.
	if (source instanceof Uint8Array && source.buffer.byteLength === 0) return undefined;
	// Readable.isDisturbed reads a web stream's too: read from, or cancelled.
	if (stream.locked || Readable.isDisturbed(stream as unknown as Readable)) return undefined;
	void stream.getReader().cancel();
	return source;
}

export async function bodyBytes(message: Message): Promise<Uint8Array> {
	const source = taken(message);
	if (source === undefined) return new Uint8Array(await message.arrayBuffer());
	return typeof source === 'string' ? encoder.encode(source) : source;
}

// A string without a surrogate or a byte order mark comes out of text() as it went in.
const asItWentIn = /^(?!\uFEFF)[^\uD800-\uDFFF]*$/;

export async function bodyText(message: Message): Promise<string> {
	const source = taken(message);
	if (source === undefined) return message.text();
	if (typeof source === 'string' && asItWentIn.test(source)) return source;
	return decoder.decode(typeof source === 'string' ? encoder.encode(source) : source);
}
