// A fake POST /tickets that keeps the Idempotency-Key contract of the IETF draft and of Stripe's API:
// the key is required, the first answer for a key is saved and replayed, a key still in flight gets 409,
// a key reused with another body gets 422, and keys longer than maxKeyLength are refused. The rules it keeps
// (the key's limit, a blank subject, two bodies that say the same) are the contract's (endpoint/contract.ts).
import type { Ticket } from '../core/model.ts';
import { canonical } from '../core/canonical.ts';
import { isBlank, keyLength, maxKeyLength } from '../endpoint/contract.ts';

export type TicketRequest = { key: string | null; body: unknown };
// replayed: this is a saved answer handed back again (Stripe's Idempotent-Replayed header).
export type Reply = { status: number; ticketId: number | null; replayed: boolean; reason: string };
// A request the endpoint received, with its reply (null while it is still being worked on).
export type Seen = { number: number; key: string | null; body: unknown; reply: Reply | null };
// 'before-commit': the worker dies before its commit, so nothing is saved and the answer is a 500.
export type ServerFault = 'none' | 'before-commit';
export type EndpointState = { tickets: Ticket[]; requests: Seen[]; inFlight: string[]; savedKeys: string[] };

const refuse = (status: number, reason: string): Reply => ({
	status,
	ticketId: null,
	replayed: false,
	reason
});

function subjectOf(body: unknown): string | null {
	if (body === null || typeof body !== 'object') return null;
	const subject = (body as Record<string, unknown>).subject;
	return typeof subject === 'string' && !isBlank(subject) ? subject : null;
}

export class TicketEndpoint {
	private tickets: Ticket[] = [];
	// The first answer for each key, with the body it answered: saved in the same commit as the ticket.
	private saved = new Map<string, { body: string; reply: Reply }>();
	private inFlight = new Map<string, { body: string; number: number }>();
	private seen: Seen[] = [];
	// Answers decided the moment a request arrived: refusals, conflicts and replays.
	private decided = new Map<number, Reply>();

	constructor(private readonly tenant = 'acme') {}

	// A request arrives. It is answered at once, or starts its work and stays in flight until respond().
	arrive(request: TicketRequest): number {
		const number = this.seen.length + 1;
		this.seen.push({ number, key: request.key, body: structuredClone(request.body), reply: null });
		const early = this.decide(request);
		if (early) this.decided.set(number, early);
		else this.inFlight.set(request.key!, { body: canonical(request.body), number });
		return number;
	}

	// The endpoint answers request `number`: it commits the ticket and the saved answer together, or dies first.
	respond(number: number, fault: ServerFault = 'none'): Reply {
		const seen = this.seen[number - 1];
		if (!seen) throw new Error(`the endpoint never received request ${number}`);
		if (seen.reply) throw new Error(`request ${number} was already answered`);
		const work = seen.key === null ? undefined : this.inFlight.get(seen.key);
		const started = work?.number === number;
		if (started) this.inFlight.delete(seen.key!);
		let reply: Reply;
		if (fault === 'before-commit') reply = refuse(500, 'the server failed before saving anything');
		else if (!started) reply = this.decided.get(number)!;
		else {
			const ticket: Ticket = {
				id: this.tickets.length + 1,
				tenant: this.tenant,
				subject: subjectOf(seen.body)!
			};
			reply = { status: 201, ticketId: ticket.id, replayed: false, reason: 'created' };
			this.tickets.push(ticket);
			this.saved.set(seen.key!, { body: work.body, reply });
		}
		seen.reply = reply;
		return { ...reply };
	}

	// arrive() and respond() at once: a request that nothing else overlaps.
	post(request: TicketRequest, fault: ServerFault = 'none'): Reply {
		return this.respond(this.arrive(request), fault);
	}

	state(): EndpointState {
		return {
			tickets: this.tickets.map((ticket) => ({ ...ticket })),
			requests: this.seen.map((seen) => ({
				...seen,
				body: structuredClone(seen.body),
				reply: seen.reply && { ...seen.reply }
			})),
			inFlight: [...this.inFlight.keys()],
			savedKeys: [...this.saved.keys()]
		};
	}

	// Refusals are not saved (Stripe saves nothing for a request that never started its work).
	private decide({ key, body }: TicketRequest): Reply | null {
		if (typeof key !== 'string' || key === '') return refuse(400, 'the Idempotency-Key header is required');
		if (keyLength(key) > maxKeyLength)
			return refuse(400, `the Idempotency-Key is longer than ${maxKeyLength} characters`);
		const saved = this.saved.get(key);
		if (saved) {
			if (saved.body !== canonical(body)) return refuse(422, 'this key was already used with another body');
			return { ...saved.reply, replayed: true };
		}
		const working = this.inFlight.get(key);
		if (working) {
			if (working.body !== canonical(body)) return refuse(422, 'this key is in use with another body');
			return refuse(409, 'a request with this key is still in progress');
		}
		if (subjectOf(body) === null) return refuse(400, 'the subject is required');
		return null;
	}
}
