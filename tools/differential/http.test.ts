// The HTTP differential check, checked: answers that agree pass whatever their ids and field order, and a
// planted difference (a TypeScript route that drops Idempotent-Replayed) fails over real HTTP, naming the
// request, both answers and the seed. The real Go side is verify's to play (it builds go/cmd/ticket-server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointOptions } from '#harness/endpoint/contract.ts';
import { startPostgres, type PostgresServer } from '#harness/postgres/server.ts';
import { tickets } from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { compareSequence, playBoth, type PlayedSequence } from './http.ts';
import { everyKind, httpSequences, type HttpSequence } from './http-sequences.ts';
import { typescriptSide, type Side } from './http-sides.ts';
import { parseAnswer, requestBytes } from '#harness/endpoint/raw-http.ts';

const sequence: HttpSequence = everyKind()[0]!;
const firstStep = sequence.steps[0]!;
const played = (ids: number[], fieldsInOrder = true): PlayedSequence => ({
	answers: ids.map((id) => ({
		request: firstStep.do === 'send' ? firstStep.request : (null as never),
		seen: {
			status: 201,
			headers: { 'content-type': ['application/json'] },
			body: { json: fieldsInOrder ? { id, kind: 'x' } : { kind: 'x', id } }
		}
	})),
	end: { tickets: ids.map((id) => ({ id, tenant: 'acme', subject: 's' })), keys: [] }
});

describe('the HTTP differential check', () => {
	it('one seed makes the same sequences every time, and another seed others', () => {
		expect(httpSequences(7, 5)).toEqual(httpSequences(7, 5));
		expect(httpSequences(8, 5)).not.toEqual(httpSequences(7, 5));
	});

	it('writes a request byte for byte, a DEL and UTF-8 included, and reads a chunked answer', () => {
		const bytes = requestBytes('http://127.0.0.1:9', {
			path: '/api/tickets',
			headers: [
				['Idempotency-Key', 'k\x7f1'],
				['Idempotency-Key', 'é']
			],
			body: Buffer.from('{}')
		});
		expect(bytes.toString('latin1')).toContain(
			'\r\nIdempotency-Key: k\x7f1\r\nIdempotency-Key: Ã©\r\n\r\n{}'
		);
		const answer = parseAnswer(
			Buffer.from(
				'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nLink: <a>\r\n\r\n3\r\nabc\r\n1\r\nd\r\n0\r\n\r\n'
			)
		);
		expect(answer).toEqual({
			status: 201,
			headers: [
				['transfer-encoding', 'chunked'],
				['link', '<a>']
			],
			body: Buffer.from('abcd')
		});
		expect(parseAnswer(Buffer.from('')), 'a connection closed with nothing: no answer').toBeNull();
	});

	it('answers that agree pass, whatever their ticket ids or the order of their fields', () => {
		expect(
			compareSequence(0, sequence, [played([1, 2, 1]), played([7, 3, 7], false)], ['a', 'b'], 7)
		).toBeNull();
		const other = compareSequence(0, sequence, [played([1, 2, 1]), played([1, 2, 2])], ['a', 'b'], 7);
		expect(other).toContain('request 3 answered differently');
	});

	describe('over real HTTP, on PostgreSQL', () => {
		let postgres: PostgresServer;
		const sides: Side[] = [];
		beforeAll(async () => {
			postgres = await startPostgres();
		}, 60_000);
		afterAll(async () => {
			for (const side of sides) await side.close();
			await postgres?.stop();
		});

		it('two servers that answer alike agree on every kind of request', { timeout: 120_000 }, async () => {
			const pair: [Side, Side] = [await typescriptSide(postgres.url), await typescriptSide(postgres.url)];
			sides.push(...pair);
			expect(await playBoth(pair, everyKind(), 7)).toEqual([]);
		});

		it(
			'a planted difference fails, with the request, both answers and the seed',
			{ timeout: 120_000 },
			async () => {
				// A replay that forgets to say so: the body is right, the Idempotent-Replayed header is gone.
				const forgetful = (options: EndpointOptions) => {
					const route = tickets(options);
					return async (request: Request) => {
						const response = await route(request);
						const headers = new Headers(response.headers);
						headers.delete('Idempotent-Replayed');
						return new Response(response.body, { status: response.status, headers });
					};
				};
				const pair: [Side, Side] = [
					await typescriptSide(postgres.url),
					await typescriptSide(postgres.url, forgetful)
				];
				sides.push(...pair);
				const problems = await playBoth(pair, everyKind().slice(0, 1), 7);
				expect(problems).toHaveLength(1);
				expect(problems[0]).toContain('HTTP sequence 1 (remember: everything; seed 7; again with:');
				expect(problems[0]).toContain('--seed 7');
				expect(problems[0]).toContain('request 2 answered differently');
				expect(problems[0]).toContain('Idempotency-Key: "k-1"');
				expect(problems[0]).toMatch(/TypeScript {2}.*"idempotent-replayed":\["true"\]/);
				expect(problems[0]).toMatch(
					/TypeScript {2}\{"status":201,"headers":\{"content-type":\["application\/json"\]\}/m
				);
			}
		);
	});
});
