// 05's crash points on PostgreSQL: a sample of the plans harness/outbox/crash-points.ts plays on the model
// (every fifth: the handler or the relay dying at one point, then the retry and a clean relay run), each on
// empty tables. The outbox keeps "every committed ticket has exactly one email" there too, and sending inside
// the handler breaks it, so the sample is seen to catch what it should.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handleWithOutbox, relay } from '../../solutions/05-email-outbox/outbox.ts';
import { sendInside } from '../../exercises/05-email-outbox/send-inside.ts';
import { crashPlans } from '../outbox/crash-points.ts';
import { propertyTime } from '../outbox/property.ts';
import { judgeRounds, playRounds } from '../outbox/rounds.ts';
import type { Sender } from '../outbox/play.ts';
import { PostgresPlace } from './place.ts';

let place: PostgresPlace;
beforeAll(async () => {
	place = await PostgresPlace.create(inject('postgresUrl'));
});
afterAll(async () => {
	await place?.drop();
});

const sample = crashPlans('every').filter((_, i) => i % 5 === 0);
const outbox: Sender = { name: 'outbox-relay', handle: (db, event) => handleWithOutbox(db, event), relay };
const inside: Sender = { name: 'send-inside', handle: sendInside, relay: null };

// The first sampled plan that breaks the promise on PostgreSQL, in words, or null.
async function firstBroken(sender: Sender): Promise<string | null> {
	for (const [i, plan] of sample.entries()) {
		const problem = judgeRounds(plan, await playRounds(sender, plan, await place.fresh()));
		if (problem) return `sampled crash plan ${i + 1} of ${sample.length}, on PostgreSQL: ${problem}`;
	}
	return null;
}

describe("05's crash points on PostgreSQL, a sample", () => {
	it('the outbox keeps the promise at every sampled crash point', propertyTime, async () => {
		expect(sample.length).toBeGreaterThan(10);
		expect(await firstBroken(outbox)).toBeNull();
	});
	it('sending inside the handler breaks it there too', propertyTime, async () => {
		expect(await firstBroken(inside)).toMatch(/which does not exist|delivered emails, not 1/);
	});
});
