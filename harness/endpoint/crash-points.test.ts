// What the crash points share, and where they stop: one crash and one retry for the points that leave the same
// commits done, every point still judged; a route that does not take the same steps twice has every point played.
import { describe, expect, it } from 'vitest';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import type { Sequence } from './calls.ts';
import type { EndpointOptions, Store } from './contract.ts';
import { exploreCrashPoints, type RecordedCrash } from './crash-points.ts';
import { MemoryStore } from './memory-store.ts';

const copy = async (store: unknown) => (store as MemoryStore).copy();
const oneTicket: Sequence = {
	remember: 'everything',
	retentionHours: 24,
	steps: [{ do: 'send', route: 'tickets', key: 'k-1', json: { subject: 'Printer on fire' } }]
};

// The solution's routes, counting the calls they answer. Changing: every other route built looks the key up once
// more in each transaction, so a crash there takes other steps than the request alone.
function counted(changing: boolean) {
	const count = { calls: 0, built: 0 };
	const looksTwice = (store: Store): Store => ({
		transaction: (work) =>
			store.transaction(async (tx) => {
				await tx.findKey('someone', 'k-1');
				return work(tx);
			})
	});
	const tickets = (options: EndpointOptions) => {
		count.built++;
		const store = changing && count.built % 2 === 0 ? looksTwice(options.store) : options.store;
		const route = solution.tickets({ ...options, store });
		return (request: Request) => (count.calls++, route(request));
	};
	return { count, code: { tickets, webhooks: solution.webhooks } };
}

async function explored(changing: boolean) {
	const { count, code } = counted(changing);
	const crashes: RecordedCrash[] = [];
	const problem = await exploreCrashPoints(code, oneTicket, new MemoryStore(), copy, undefined, (crash) =>
		crashes.push(crash)
	);
	return { problem, crashes, calls: count.calls };
}

describe("06's crash points, shared where they leave the same tables", () => {
	it('plays one crash and one retry for the points with the same commits before them, and judges every point', async () => {
		const { crashes, calls } = await explored(false);
		// begin, lockKey, findKey, createTicket, saveKey, commit, and the end: seven points, two sets of them.
		expect(crashes.map((crash) => crash.judged.at)).toEqual([0, 1, 2, 3, 4, 5, 6]);
		// The request alone; a crash at the begin, whose retry is the request alone; a crash at the end, its retry.
		expect(calls, 'route calls for seven crash points').toBe(4);
		const beforeCommit = crashes.slice(0, 6).map((crash) => crash.judged.retry.answer);
		expect(new Set(beforeCommit.map((answer) => JSON.stringify(answer))).size).toBe(1);
	});

	it('plays every point of a route that does not take the same steps twice', async () => {
		const { problem, crashes, calls } = await explored(true);
		expect(problem).toBeNull();
		const points = crashes.length;
		expect(points).toBe(7);
		expect(calls, `route calls for ${points} crash points, each played`).toBe(1 + 2 * points);
	});
});
