// A reference model of exercise 06's contract: what each request should get, and what the tables should hold,
// worked out from the rules alone, with no store and no transactions. properties.ts compares the learner's
// routes with it answer by answer.
//
//   const model = new EndpointModel({ remember: 'everything', retentionHours: 24 });
//   model.wait(25 * 60);                    // the clock moves on
//   const expected = model.send(call);      // { status, json?, sameAs? } — what the answer must be
//   model.adopt(answer);                    // the learner's body becomes the one a replay must repeat
//   model.alive();                          // the keys and receipts still within the retention
//
// The rules: a key is kept for retentionHours from its first answer, then forgotten (a request under it is new
// again). Under a kept key, a body with the same fingerprint (the whole parsed body, whatever its field order)
// gets the saved answer again, byte for byte and marked replayed; any other body gets 422. A 201 is saved with
// its key; a 500 is saved only when the server remembers everything. A webhook's receipt is kept as long; a
// redelivery within it gets replay() (02's rule: the same subject replays, another is a conflict, 422), one
// after it makes a new ticket. Tickets count from 1.
import { fingerprint, hour, type Remember } from './contract.ts';
import { replay } from '../core/replay.ts';
import { saidIdentity } from '../core/identity.ts';
import type { Receipt, Ticket, Webhook } from '../core/model.ts';
import type { Answer, Call } from './calls.ts';

// What the answer must be: its status, and its JSON (a first answer) or the earlier body it repeats (a replay).
export type Expected = { status: number; json?: unknown; replays?: string; why: string };
type Kept = { fingerprint: string; status: number; body: string | null; at: number };

export class EndpointModel {
	time = 0;
	readonly tickets: Ticket[] = [];
	readonly keys = new Map<string, Kept>();
	readonly receipts = new Map<string, { receipt: Receipt; at: number }>();
	private pending: Kept | null = null;
	constructor(readonly settings: { remember: Remember; retentionHours: number }) {}

	private kept(at: number): boolean {
		return this.time - at < this.settings.retentionHours * hour;
	}

	wait(minutes: number): void {
		this.time += minutes * 60_000;
	}

	send(call: Call): Expected {
		this.pending = null;
		return call.route === 'tickets' ? this.ticket(call) : this.webhook(call.json as Webhook);
	}

	private ticket(call: Call): Expected {
		const print = fingerprint(call.json);
		const saved = this.keys.get(call.key!);
		if (saved && this.kept(saved.at)) {
			if (saved.fingerprint !== print)
				return { status: 422, why: 'another body under a key still kept: refused' };
			return {
				status: saved.status,
				replays: saved.body!,
				why: 'the same body under a key still kept: replayed'
			};
		}
		this.keys.delete(call.key!);
		if (call.stepFails) {
			const failed = { fingerprint: print, status: 500, body: null, at: this.time };
			if (this.settings.remember === 'everything') this.keys.set(call.key!, (this.pending = failed));
			return { status: 500, why: `the ticket's insert failed (remember: "${this.settings.remember}")` };
		}
		const id = this.tickets.length + 1;
		this.tickets.push({ id, tenant: 'acme', subject: (call.json as { subject: string }).subject });
		const made = { fingerprint: print, status: 201, body: null, at: this.time };
		this.keys.set(call.key!, (this.pending = made));
		const why = saved ? 'the key had expired, so the request is new: a ticket' : 'a new key: a ticket';
		return { status: 201, json: { id }, why };
	}

	private webhook(event: Webhook): Expected {
		const id = saidIdentity(event);
		const seen = this.receipts.get(id);
		if (seen && this.kept(seen.at)) {
			const outcome = replay(seen.receipt, event);
			if (outcome.kind === 'conflict')
				return { status: 422, why: 'a redelivery with another subject within the retention: a conflict' };
			return { status: 200, json: outcome, why: 'a redelivery within the retention: replayed' };
		}
		const ticketId = this.tickets.length + 1;
		this.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		this.receipts.set(id, { receipt: { ...event, ticketId }, at: this.time });
		const why = seen ? 'the receipt had expired: a new ticket' : 'a first delivery: a ticket';
		return { status: 201, json: { kind: 'created', ticketId }, why };
	}

	// The body the learner sent for an answer just saved: the one a replay must send again, byte for byte.
	adopt(answer: Answer): void {
		if (this.pending) this.pending.body = answer.body;
		this.pending = null;
	}

	// The keys and receipts still within the retention, which the tables must hold as the model does.
	alive() {
		const keys = [...this.keys]
			.filter(([, kept]) => this.kept(kept.at))
			.map(([key, { status }]) => ({ key, status }));
		const receipts = [...this.receipts.values()]
			.filter(({ at }) => this.kept(at))
			.map(({ receipt }) => receipt);
		return { keys, receipts, forgotten: (at: Date) => !this.kept(at.getTime()) };
	}
}
