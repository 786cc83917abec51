// Plays the differential check's cases (cases.ts) with the TypeScript solutions and says what each answered,
// as plain JSON, in the shape go/cmd/differential answers in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadClientJourney } from '#harness/client/journeys.ts';
import { loadHandlerSchedule } from '#harness/handler/schedules.ts';
import { MemoryStorage } from '#harness/client/memory-storage.ts';
import { playJourney } from '#harness/client/play.ts';
import type { Handler } from '#harness/core/model.ts';
import { loadOutboxSchedule } from '#harness/outbox/schedules.ts';
import { loadRaceSchedule } from '#harness/race/schedules.ts';
import { entryName } from '#harness/client/model.ts';
import { TicketEndpoint } from '#harness/client/fake-endpoint.ts';
import { TicketHandler } from '../../solutions/01-first-handler/handler.ts';
import { ReceiptHandler, sameEvent } from '../../solutions/02-same-event/handler.ts';
import { afterAnswer, submissions } from '../../solutions/04-send-button-key/submission.ts';
import type { Case, ScheduleKind } from './cases.ts';

const loaders: Record<ScheduleKind, (path: string) => unknown> = {
	handler: loadHandlerSchedule,
	race: loadRaceSchedule,
	outbox: loadOutboxSchedule,
	client: loadClientJourney
};

function handled(handler: Handler, deliveries: Extract<Case, { kind: 'handler' }>['deliveries']) {
	const outcomes = deliveries.map(({ event, fault }) => ({ ...handler.handle({ ...event }, fault) }));
	const { tickets, receipts } = handler.snapshot();
	return { outcomes, tickets, receipts };
}

function stored(steps: Extract<Case, { kind: 'storage' }>) {
	const name = entryName('support');
	const storage = new MemoryStorage(steps.stored === null ? {} : { [name]: steps.stored });
	let made = 0;
	const newKey = () => `key-${++made}`;
	const open = () => submissions<Record<string, string>>(storage, 'support', newKey);
	let page = open();
	const answers = steps.steps.map((step) => {
		try {
			switch (step.do) {
				case 'pending':
					return page.pending();
				case 'begin':
					return page.begin(step.body);
				case 'finish':
					page.finish();
					return null;
				case 'fail':
					storage.fail(step.methods);
					return null;
				case 'heal':
					storage.heal();
					return null;
				case 'reload':
					page = open();
					return null;
			}
		} catch (error) {
			return { threw: true };
		}
	});
	return { answers, contents: storage.contents() };
}

function endpoint(steps: Extract<Case, { kind: 'endpoint' }>['steps']) {
	const endpoint = new TicketEndpoint('acme');
	const answers = steps.map((step) => {
		if (step.do === 'arrive') return endpoint.arrive({ key: step.key, body: step.body });
		const { status, ticketId, replayed, reason } = endpoint.respond(step.request, step.fault);
		return { status, ticketId, replayed, reason };
	});
	return { answers, tickets: endpoint.state().tickets };
}

function journey(c: Extract<Case, { kind: 'journey' }>) {
	const played = playJourney(c.journey, { submissions, afterAnswer });
	if (played.threw) return { threw: true };
	return {
		steps: played.steps.map(({ request, shows, locked }) => ({
			request: request && {
				key: request.key,
				body: request.body,
				reply: request.reply && {
					status: request.reply.status,
					ticketId: request.reply.ticketId,
					replayed: request.reply.replayed,
					reason: request.reply.reason
				}
			},
			shows,
			locked
		})),
		tickets: played.tickets
	};
}

function schedule(c: Extract<Case, { kind: 'schedule' }>, dir: string) {
	const path = join(dir, `${c.name}.json`);
	writeFileSync(path, c.text);
	try {
		loaders[c.schedule](path);
		return { accepted: true };
	} catch (error) {
		return { accepted: false, said: (error as Error).message.replace(/^[^:]*: /, '') };
	}
}

export function playTs(cases: Case[]): unknown[] {
	const dir = mkdtempSync(join(tmpdir(), 'differential-'));
	try {
		return cases.map((c) => {
			switch (c.kind) {
				case 'identity':
					return { same: sameEvent(c.a, c.b) };
				case 'handler':
					return {
						'create-every-time': handled(new TicketHandler(), c.deliveries),
						'receipt-in-commit': handled(new ReceiptHandler(), c.deliveries)
					};
				case 'endpoint':
					return endpoint(c.steps);
				case 'storage':
					return stored(c);
				case 'journey':
					return journey(c);
				case 'schedule':
					return schedule(c, dir);
			}
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
