// The overlaps' hang rule (overlaps.ts): a request that takes no store step while the event loop sits idle is
// hung, and one that is only slow, as a loaded machine makes every step, is not.
import { describe, expect, it } from 'vitest';
import * as solution from '../../solutions/06-ticket-endpoint/endpoint.ts';
import type { EndpointOptions, Route } from './contract.ts';
import { exploreOverlaps, overlaps } from './overlaps.ts';
import type { EndpointCode } from './play.ts';

const sameEvent = overlaps().find((overlap) => overlap.name.startsWith('one event, the same subject'))!;

// The solution, but the webhook it is handed fifth first does what `before` does: the exploration plays the
// two orders one after the other first (four webhooks), so the fifth is request 1 of the first interleaving.
function fifth(before: () => Promise<void>): EndpointCode {
	let handed = 0;
	const webhooks = (options: EndpointOptions): Route => {
		const route = solution.webhooks(options);
		return async (request) => {
			if (++handed === 5) await before();
			return route(request);
		};
	};
	return { tickets: solution.tickets, webhooks };
}

// Once the player waits for the request's next step, the thread stops for ms of wall clock without the loop
// going idle, as on a machine too busy to run it; then the step waits for a timer, so the player's own timers
// have their turn first.
const stalled = (ms: number) => async () => {
	await Promise.resolve();
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
	await new Promise((resolve) => setTimeout(resolve, 0));
};

describe("the overlaps' hang rule", () => {
	it('a step the machine makes slow (2.5 s of wall clock, the loop never idle) is no hang', async () => {
		expect(await exploreOverlaps(fifth(stalled(2_500)), sameEvent)).toBeNull();
	}, 30_000);

	it('a request that waits on nothing that will ever come is hung, told as before', async () => {
		const never = () => new Promise<void>(() => {});
		await expect(exploreOverlaps(fifth(never), sameEvent)).rejects.toThrow('request 1 hung');
	}, 30_000);
});
