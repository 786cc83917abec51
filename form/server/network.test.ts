import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { learnerFile, keyStoreModule, solutionFile } from './key-store.ts';
import { startFakeBackend } from './fake-endpoint.ts';
import type { Backend } from './backend.ts';
import { Network } from './network.ts';
import { saidServer } from '../words.ts';
import { pickWritten } from '../pick.ts';
import * as solution from '../../solutions/04-send-button-key/submission.ts';
import { todo } from '#harness/core/todo.ts';
import { maxBodyBytes } from '#harness/endpoint/contract.ts';
import type { KeyStoreCode } from '#harness/client/play.ts';

const running: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
	for (const one of running.splice(0)) await one.stop();
});

// The fake endpoint behind a network, as the page server wires them, without Vite.
async function wired() {
	const backend: Backend = await startFakeBackend();
	const network = new Network(backend.url);
	const server: Server = createServer((request, response) => {
		response.shouldKeepAlive = false;
		void network.forward(request, response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tickets`;
	running.push({
		stop: async () => {
			server.closeAllConnections();
			await new Promise((done) => server.close(done));
			await backend.stop();
		}
	});
	const post = (key: string | null, subject: string) =>
		fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'idempotency-key': key }) },
			body: JSON.stringify({ subject })
		});
	return { backend, network, post };
}

describe('the fake endpoint, as a Fetch handler on loopback', () => {
	it('creates ticket 1, replays it for the same key and body, and refuses what the contract refuses', async () => {
		const { backend, post } = await wired();
		const first = await post('k1', 'Cannot sign in');
		expect([first.status, await first.json()]).toEqual([201, { id: 1 }]);
		const again = await post('k1', 'Cannot sign in');
		expect([again.status, again.headers.get('idempotent-replayed'), await again.json()]).toEqual([
			201,
			'true',
			{ id: 1 }
		]);
		const other = await post('k1', 'Printer on fire');
		expect([other.status, other.headers.get('content-type')]).toEqual([422, 'application/problem+json']);
		expect((await post(null, 'x')).status).toBe(400);
		expect((await post('k2', ' ')).status).toBe(400);
		expect(await backend.tickets()).toEqual([{ id: 1, tenant: 'acme', subject: 'Cannot sign in' }]);
		expect(backend.received.map((r) => [r.key, r.status])).toEqual([
			['k1', 201],
			['k1', 201],
			['k1', 422],
			[null, 400],
			['k2', 400]
		]);
	});

	it("answers another path, another method and an oversized body as exercise 06's server does", async () => {
		const { backend } = await wired();
		const answers = [
			await fetch(`${backend.url}/api/other`, { method: 'POST', body: '{}' }),
			await fetch(`${backend.url}/api/tickets`),
			await fetch(`${backend.url}/api/tickets`, { method: 'POST', body: 'x'.repeat(maxBodyBytes + 1) })
		];
		expect(answers.map((answer) => [answer.status, answer.headers.get('content-type')])).toEqual([
			[404, 'application/problem+json'],
			[405, 'application/problem+json'],
			[413, 'application/problem+json']
		]);
		expect(backend.received, 'none of them reached the endpoint').toEqual([]);
	});
});

describe('stopping', () => {
	it('leaves nothing listening: the endpoint refuses connections once stopped', async () => {
		const backend = await startFakeBackend();
		const url = `${backend.url}/api/tickets`;
		expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(400);
		await backend.stop();
		await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
	});
});

describe('the network between the page and the endpoint', () => {
	it('lose: the endpoint creates the ticket, and the caller gets no answer at all', async () => {
		const { backend, network, post } = await wired();
		network.next({ do: 'lose' });
		await expect(post('k1', 'Cannot sign in')).rejects.toThrow();
		expect(await backend.tickets()).toHaveLength(1);
		expect(network.exchanges).toMatchObject([{ key: 'k1', fate: 'answer lost', server: 201, page: 'lost' }]);
		const next = await post('k1', 'Cannot sign in');
		expect([next.status, network.exchanges[1]!.fate]).toEqual([201, 'through']);
		expect(network.exchanges.map(saidServer), 'the retry is marked a replay').toEqual([
			'201',
			'201, a replay (Idempotent-Replayed)'
		]);
	});

	it('answer 500: the endpoint did the work, the caller hears 500', async () => {
		const { backend, network, post } = await wired();
		network.next({ do: 'answer', status: 500 });
		expect((await post('k1', 'Cannot sign in')).status).toBe(500);
		expect(backend.received.map((r) => r.status)).toEqual([201]);
		expect(network.exchanges[0]).toMatchObject({ server: 201, page: 500 });
	});

	it('answer 409: never passed on, so the endpoint sees nothing', async () => {
		const { backend, network, post } = await wired();
		network.next({ do: 'answer', status: 409 });
		expect((await post('k1', 'Cannot sign in')).status).toBe(409);
		expect(backend.received).toEqual([]);
		expect(network.exchanges[0]).toMatchObject({
			server: null,
			page: 409,
			fate: '409 without passing it on'
		});
	});

	it('delay: the answer still arrives, and the fates are used up in the order they were asked for', async () => {
		const { network, post } = await wired();
		network.next({ do: 'delay', ms: 10 });
		network.next({ do: 'answer', status: 409 });
		expect((await post('k1', 'a')).status).toBe(201);
		expect((await post('k1', 'a')).status).toBe(409);
		expect((await post('k1', 'a')).status).toBe(201);
		expect(network.exchanges.map((e) => e.fate)).toEqual([
			'answer delayed 0.01 s',
			'409 without passing it on',
			'through'
		]);
		expect(network.queue).toEqual([]);
	});
});

describe('which key store the page runs', () => {
	// A stub as shipped (not the learner's file, which may be written by now).
	const stub: KeyStoreCode = {
		submissions: () => todo('submissions', '04-send-button-key/submission.ts'),
		afterAnswer: () => todo('afterAnswer', '04-send-button-key/submission.ts')
	};

	it('auto: the solution while the learner stub says "not written yet", and says so', () => {
		const picked = pickWritten(stub, solution);
		expect(picked.submissions).toBe(solution.submissions);
		expect(picked.label).toContain("yours still says 'not written yet'");
		expect(pickWritten(solution, stub).label).toBe('your code, exercises/04-send-button-key/submission.ts');
	});

	it('imports the chosen file, and refuses a wrong solution that is not a 04 mistake', () => {
		expect(keyStoreModule('learner')).toContain(JSON.stringify(learnerFile));
		expect(keyStoreModule('solution')).toContain(JSON.stringify(solutionFile));
		expect(keyStoreModule('wrong:new-key-per-attempt')).toContain(
			'solutions/04-send-button-key/submission.ts?wrong=new-key-per-attempt'
		);
		expect(keyStoreModule('wrong:new-key-per-attempt')).toContain(
			'solutions/wrong/new-key-per-attempt.patch'
		);
		expect(() => keyStoreModule('wrong:joined-identity')).toThrow('not a 04 key-store mistake');
	});
});
