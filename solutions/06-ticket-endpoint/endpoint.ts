import { UniqueViolation } from '#harness/database/database.ts';
import {
	fingerprint,
	isBlank,
	json,
	keyLength,
	maxKeyLength,
	problem,
	readJson,
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

// Why this Idempotency-Key can't be used, or null when it can.
function keyProblem(key: string | null): string | null {
	if (key === null || key === '') return 'the Idempotency-Key header is required';
	if (keyLength(key) > maxKeyLength)
		return `the Idempotency-Key header is longer than ${maxKeyLength} characters`;
	if (/[\u0000-\u001f\u007f]/.test(key)) return 'the Idempotency-Key header holds control characters';
	return null;
}

function subjectOf(body: unknown): string | null {
	const subject = (body as { subject?: unknown } | null)?.subject;
	return typeof subject === 'string' && !isBlank(subject) ? subject : null;
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
		const key = request.headers.get('Idempotency-Key');
		const wrongKey = keyProblem(key);
		if (wrongKey) return problem(400, 'Bad Request', wrongKey);
		const read = await readJson(request);
		if ('refused' in read) return read.refused;
		const subject = subjectOf(read.body);
		if (!subject) return problem(400, 'Bad Request', 'the ticket needs a subject');
		const print = fingerprint(read.body);
		const expired = (saved: KeyRecord) => now().getTime() - saved.createdAt.getTime() >= retention;
		const save = (tx: Transaction, response: SavedResponse) =>
			tx.saveKey({ key: key!, fingerprint: print, response, createdAt: now() });
		try {
			return await store.transaction(async (tx) => {
				// Held by another open transaction: the first request with this key is still being worked on.
				if (!(await tx.lockKey(key!)))
					return problem(409, 'Conflict', 'a request with this Idempotency-Key is still in progress');
				const saved = await tx.findKey(key!);
				// Older than we keep keys: forgotten, so this request is new.
				if (saved && expired(saved)) await tx.forgetKey(key!);
				else if (saved) {
					if (saved.fingerprint !== print)
						return problem(422, 'Unprocessable Content', 'this Idempotency-Key was used with another body');
					return replayed(saved.response);
				}
				const id = await tx.createTicket({ tenant, subject });
				const created = { status: 201, body: JSON.stringify({ id }) };
				await save(tx, created);
				return sent(created);
			});
		} catch (error) {
			// The unique key is the last guard: someone saved this key after all. Not a failure: try again.
			if (error instanceof UniqueViolation)
				return problem(409, 'Conflict', 'a request with this Idempotency-Key is still in progress');
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
					if (!(await tx.lockKey(key!))) return;
					// The rollback brought back an expired key this request had forgotten: forget it again.
					const saved = await tx.findKey(key!);
					if (saved && !expired(saved)) return;
					if (saved) await tx.forgetKey(key!);
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
		try {
			return await store.transaction(async (tx) => {
				let seen = await tx.findReceipt(event);
				const expired = (receipt: StoredReceipt) =>
					now().getTime() - receipt.receivedAt.getTime() >= retention;
				// Expired: take the event's lock before forgetting it, and look again, so a receipt another delivery
				// saved since is never the one forgotten.
				if (seen && expired(seen)) {
					if (!(await tx.lockKey(`receipt ${saidIdentity(event)}`)))
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
