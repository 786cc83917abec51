import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { handleSeparately } from '../../exercises/03-the-race/separate.ts';
import { sendInside } from '../../exercises/05-email-outbox/send-inside.ts';
import { handleAtomically } from '../../solutions/03-the-race/atomic.ts';
import { handleWithOutbox, relay } from '../../solutions/05-email-outbox/outbox.ts';
import { InMemoryDatabase, type Contents } from '../database/database.ts';
import { handlerSchedules } from '../handler/schedules.ts';
import { playOn } from '../database/open-database.ts';
import { outboxSchedules } from '../outbox/schedules.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { playOutbox, type Sender } from '../outbox/play.ts';
import { playDeliveries, type RaceHandler } from '../race/play.ts';
import { tellTrace } from '../scheduler/trace.ts';
import { saidReceipt } from '../core/words.ts';
import { compare, type Told } from './differential.ts';
import { PostgresPlace } from './place.ts';

// The handler and outbox schedules, played once on the model and once on PostgreSQL: the same story, step
// by step, and the same rows, emails and provider calls after the last step.
let place: PostgresPlace;
beforeAll(async () => {
	place = await PostgresPlace.create(inject('postgresUrl'));
});
afterAll(async () => {
	await place?.drop();
	playOn(() => new InMemoryDatabase());
});

const rowsOf = (contents: Contents) => [
	...contents.tickets.map((t) => `ticket #${t.id} ${t.tenant}: ${t.subject}`),
	...contents.receipts.map((r) => `receipt ${saidReceipt(r)}`),
	...contents.outbox.map((o) => `outbox #${o.id} ${o.key} ${o.state}`)
];

async function onBoth(play: () => Promise<Told>): Promise<[Told, Told]> {
	playOn(() => new InMemoryDatabase());
	const model = await play();
	playOn(() => place.fresh());
	const server = await play();
	return [model, server];
}

const handlers: [string, RaceHandler][] = [
	['separate.ts', handleSeparately],
	['atomic.ts (the solution)', handleAtomically]
];
const senders: (() => Sender)[] = [
	() => ({ name: 'outbox-relay', handle: handleWithOutbox, relay }),
	() => ({ name: 'send-inside', handle: sendInside, relay: null })
];

describe('the handler schedules, one delivery at a time, on the model and on PostgreSQL', () => {
	for (const [label, handle] of handlers) {
		for (const schedule of handlerSchedules()) {
			it(`"${schedule.name}" with ${label}`, async () => {
				const [model, server] = await onBoth(async () => {
					const { db } = await playDeliveries(schedule, handle);
					return { steps: '', trace: tellTrace(db.trace).split('\n'), rows: rowsOf(await db.committed()) };
				});
				const problem = compare(`handler schedule "${schedule.name}" with ${label}`, model, server);
				if (problem) throw new ScheduleMismatch(problem);
			});
		}
	}
});

describe('the outbox schedules on the model and on PostgreSQL', () => {
	for (const sender of senders) {
		for (const schedule of outboxSchedules()) {
			it(`"${schedule.name}" as ${sender().name}`, async () => {
				const [model, server] = await onBoth(async () => {
					const played = await playOutbox(schedule, sender());
					const emails = played.inbox.map((e) => `email ${e.key} → ${e.to}`);
					const calls = played.calls.map((c) => `call ${c.key}: ${c.answer}`);
					return { steps: '', trace: played.story, rows: [...rowsOf(played.committed), ...emails, ...calls] };
				});
				const problem = compare(`outbox schedule "${schedule.name}" as ${sender().name}`, model, server);
				if (problem) throw new ScheduleMismatch(problem);
			});
		}
	}
});
