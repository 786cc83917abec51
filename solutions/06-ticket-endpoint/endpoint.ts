import { UniqueViolation } from '#harness/database/database.ts';
import {
	clientOf,
	fingerprint,
	holdsNul,
	isBlank,
	json,
	keyLength,
	maxKeyLength,
	maxSubjectLength,
	problem,
	readJson,
	refuse,
	rules,
	type Rule,
	type EndpointOptions,
	type KeyRecord,
	type Route,
	type SavedResponse,
	type StoredReceipt,
	type Transaction
} from '#harness/endpoint/contract.ts';
import type { Outcome, Webhook } from '#harness/core/model.ts';
import { replay } from '#harness/core/replay.ts';
import { saidIdentity } from '#harness/core/identity.ts';

// The key, or the rule it breaks. "K" in quotes (the draft's Structured Field string) is the key K. A comma is
// what HTTP puts between two header lines of one name: two keys. Then its characters, then its length.
function readKey(header: string | null): { key: string } | { refused: Rule } {
	const key = header !== null && /^".*"$/s.test(header) ? header.slice(1, -1) : header;
	if (key === null || key === '') return { refused: 'key-required' };
	if (key.includes(',')) return { refused: 'key-once' };
	const { lowest, highest, excluded } = rules.key;
	for (const character of key) {
		const code = character.codePointAt(0)!;
		if (code < lowest || code > highest || excluded.includes(character)) return { refused: 'key-syntax' };
	}
	if (keyLength(key) > maxKeyLength) return { refused: 'key-length' };
	return { key };
}

// The ticket's subject, or the rule it breaks: there, not blank, and short enough for its column.
function readSubject(body: unknown): { subject: string } | { refused: Rule } {
	const subject = (body as { subject?: unknown } | null)?.subject;
	if (typeof subject !== 'string' || isBlank(subject)) return { refused: 'subject-required' };
	if ([...subject].length > maxSubjectLength) return { refused: 'subject-length' };
	return { subject };
}

// A saved answer, sent again exactly as it was first sent, and marked as a replay.
function replayed({ status, body }: SavedResponse): Response {
	const type = status < 400 ? 'application/json' : 'application/problem+json';
	return new Response(body, { status, headers: { 'Content-Type': type, 'Idempotent-Replayed': 'true' } });
}

function sent({ status, body }: SavedResponse): Response {
	const type = status < 400 ? 'application/json' : 'application/problem+json';
	return new Response(body, { status, headers: { 'Content-Type': type } });
}

// POST /api/tickets: the ticket and the saved answer for its key commit together, so a retry gets that answer.
export function tickets({ store, remember, retention, now, tenant }: EndpointOptions): Route {
	return async (request) => {
		// Keys belong to the client that sent them: another client's "k-1" is another key.
		const client = clientOf(request);
		if (!client) return refuse('client-required');
		// The query string is not part of the fingerprint, so it is refused rather than ignored.
		if (new URL(request.url).search !== '') return refuse('query-refused');
		const read = readKey(request.headers.get('Idempotency-Key'));
		if ('refused' in read) return refuse(read.refused);
		const { key } = read;
		const body = await readJson(request);
		if ('refused' in body) return body.refused;
		// Refused here, before any transaction: a text PostgreSQL cannot hold would fail the insert with a 500.
		if (holdsNul(body.body)) return refuse('nul');
		const draft = readSubject(body.body);
		if ('refused' in draft) return refuse(draft.refused);
		const { subject } = draft;
		const print = fingerprint(body.body);
		const expired = (saved: KeyRecord) => now().getTime() - saved.createdAt.getTime() >= retention;
		const save = (tx: Transaction, response: SavedResponse) =>
			tx.saveKey({ client, key, fingerprint: print, response, createdAt: now() });
		try {
			return await store.transaction(async (tx) => {
				// Held by another open transaction: the first request with this key is still being worked on.
				if (!(await tx.lockKey(client, key))) return refuse('in-flight');
				const saved = await tx.findKey(client, key);
				// Older than we keep keys: forgotten, so this request is new.
				if (saved && expired(saved)) await tx.forgetKey(client, key);
				else if (saved) {
					if (saved.fingerprint !== print) return refuse('other-body');
					return replayed(saved.response);
				}
				const id = await tx.createTicket({ tenant, subject });
				const created = { status: 201, body: JSON.stringify({ id }) };
				await save(tx, created);
				return sent(created);
			});
		} catch (error) {
			// The unique key is the last guard: someone saved this key after all. Not a failure: try again.
			if (error instanceof UniqueViolation) return refuse('in-flight');
			const failed = {
				status: 500,
				body: JSON.stringify({
					type: 'about:blank',
					title: 'Internal Server Error',
					status: 500,
					detail: 'the ticket could not be saved'
				})
			};
			// Like Stripe: the failure is this key's answer now, and every retry gets it back.
			if (remember === 'everything')
				await store.transaction(async (tx) => {
					if (!(await tx.lockKey(client, key))) return;
					// The rollback brought back an expired key this request had forgotten: forget it again.
					const saved = await tx.findKey(client, key);
					if (saved && !expired(saved)) return;
					if (saved) await tx.forgetKey(client, key);
					await save(tx, failed);
				});
			return sent(failed);
		}
	};
}

function webhookOf(body: unknown): Webhook | null {
	const fields = body as Partial<Record<keyof Webhook, unknown>> | null;
	if (fields === null || typeof fields !== 'object') return null;
	const { tenant, source, eventId, subject } = fields;
	const texts = [tenant, source, eventId, subject];
	if (!texts.every((text) => typeof text === 'string' && text !== '')) return null;
	return { tenant, source, eventId, subject } as Webhook;
}

function answered(outcome: Outcome): Response {
	if (outcome.kind === 'conflict')
		return problem(422, 'Unprocessable Content', 'this event was already delivered with another subject');
	return json(outcome.kind === 'created' ? 201 : 200, outcome);
}

// POST /webhooks: exercise 03's handler on PostgreSQL, with receipts kept for as long as retention says.
export function webhooks({ store, retention, now }: EndpointOptions): Route {
	return async (request) => {
		const read = await readJson(request);
		if ('refused' in read) return read.refused;
		const event = webhookOf(read.body);
		if (!event) return problem(400, 'Bad Request', 'a webhook needs tenant, source, eventId and subject');
		if (holdsNul(read.body)) return refuse('nul');
		if ([...event.subject].length > maxSubjectLength) return refuse('subject-length');
		try {
			return await store.transaction(async (tx) => {
				let seen = await tx.findReceipt(event);
				const expired = (receipt: StoredReceipt) =>
					now().getTime() - receipt.receivedAt.getTime() >= retention;
				// Expired: take the event's lock before forgetting it, and look again, so a receipt another delivery
				// saved since is never the one forgotten. Its "client" has a space, so no caller's key is this lock.
				if (seen && expired(seen)) {
					if (!(await tx.lockKey('webhook receipt', saidIdentity(event))))
						return problem(409, 'Conflict', 'another delivery of this event is still in progress');
					seen = await tx.findReceipt(event);
				}
				if (seen && !expired(seen)) return answered(replay(seen, event));
				if (seen) await tx.forgetReceipt(event);
				const ticketId = await tx.createTicket({ tenant: event.tenant, subject: event.subject });
				// If another open transaction saved this receipt, the insert waits for it to end.
				await tx.saveReceipt({ ...event, ticketId, receivedAt: now() });
				return answered({ kind: 'created', ticketId });
			});
		} catch (error) {
			if (!(error instanceof UniqueViolation)) throw error;
			// Another delivery of this event committed first: answer with its ticket.
			const winner = await store.transaction((tx) => tx.findReceipt(event));
			if (!winner) throw error;
			return answered(replay(winner, event));
		}
	};
}
