// What exercise 06's endpoint works with: the store it writes through, its options, and small helpers; and the
// rules of the Idempotency-Key contract that both sides of the key read from here: the key's limit, a blank
// subject, two bodies that say the same thing, and which answers are definite. 04's fake endpoint, the key
// store's judge and words, the solutions and the grader import them; Go keeps its twins in go/client.
//
//   export function tickets({ store, remember, retention, now }: EndpointOptions): Route {
//   	return async (request) => {
//   		const client = clientOf(request);                    // Authorization: Bearer <client>, or null: 401
//   		const key = request.headers.get('Idempotency-Key');  // held to rules.key: else refuse('key-…')
//   		const body = await readJson(request);                // { body } or { refused: a problem Response }
//   		return store.transaction(async (tx) => {             // commits if work returns, rolls back if it throws
//   			if (!(await tx.lockKey(client, key))) return refuse('in-flight'); // another transaction holds it
//   			const saved = await tx.findKey(client, key);    // KeyRecord | null
//   			const id = await tx.createTicket({ tenant, subject });
//   			await tx.saveKey({ client, key, fingerprint, response, createdAt: now() }); // unique on both
//   			return json(201, { id });
//   		});
//   	};
//   }
//
// A Route is a Fetch-API function, (Request) => Promise<Response>: the harness serves it over real HTTP on a
// loopback port (server.ts), on a real PostgreSQL (postgres-store.ts), and the same function would run in any
// server that speaks Fetch. Nothing here knows about the schedules: faults are the harness's business.
//
// The rules a request is refused by live in rules.json, which Go reads too (go/endpoint/rules_test.go): the
// client's syntax, the key's, the limits, Retry-After, and each refusal's status, words and README section.
// refuse(name) answers one of them as problem+json, with a Link to that section (rel="describedby").
//
// The store's transaction: lockKey is PostgreSQL's pg_try_advisory_xact_lock, held until the transaction ends
// (commit, rollback, or a crash that drops the connection). saveKey and saveReceipt throw UniqueViolation
// (#harness/database/database.ts) when the key is already saved; an insert of a key that another open transaction saved
// waits for it to end first, as PostgreSQL does. After any error inside work, the transaction is over: the
// store rolls it back and throws the error on. Ticket ids count from 1 with no gaps: a rolled-back ticket
// gives its number back.
import { createHash } from 'node:crypto';
import type { EventIdentity } from '../core/identity.ts';
import type { Receipt, Ticket } from '../core/model.ts';
import { canonical } from '../core/canonical.ts';
import rules from './rules.json' with { type: 'json' };
import { bodyBytes } from './bodies.ts';

export { canonical };

// Stripe's limit is 255 characters. A character here is a Unicode code point, in both languages: not a
// UTF-16 unit (JavaScript's .length) and not a byte (Go's len). "é" is one, and so is "😀". The endpoint
// takes only printable ASCII (rules.key), so there each character is one byte too: counted one way.
export const maxKeyLength = rules.key.maxLength;
export const keyLength = (key: string): number => [...key].length;
export { rules };

// A refusal's name: rules.json's problems, each with its status, words and README section.
export type Rule = keyof typeof rules.problems;

// A refusal's Link: to the README section that explains it, by a path from the root ("/exercises/…"), so that
// it resolves against any request's URL to the same place, the workbook's own path to that README. The
// harness's servers serve that README there (server.ts, Go's ServeReadme), so the Link can be followed.
export const readmeLink = (section: string): string => `</${rules.readme}#${section}>; rel="describedby"`;

// The answer for a broken rule: problem+json, with a Link to the README section that explains it, and
// Retry-After (seconds) on a 409, so a client knows when trying the same key again makes sense.
export function refuse(rule: Rule): Response {
	const { status, title, detail, section } = rules.problems[rule];
	const response = problem(status, title, detail);
	response.headers.set('Link', readmeLink(section));
	if (status === 409) response.headers.set('Retry-After', String(rules.retryAfterSeconds));
	return response;
}

const clientPattern = new RegExp(rules.client.pattern);

// The caller, from Authorization: Bearer <client>; null when it is missing or not in the client's syntax.
// The harness hands each client its name as its token; a real server would look a secret token up instead.
export function clientOf(request: Request): string | null {
	const [scheme, client, ...rest] = (request.headers.get(rules.client.header) ?? '').split(' ');
	if (scheme !== rules.client.scheme || rest.length > 0 || client === undefined) return null;
	return clientPattern.test(client) ? client : null;
}

// Blank: nothing but white space. JavaScript's trim() is the rule (its white space and line terminators);
// go/client/endpoint.go lists the same characters (KeyLength, IsBlank are Go's twins of these two).
export const isBlank = (text: string): boolean => text.trim() === '';

// A definite answer: a 2xx (it was made) or a 4xx other than 409 (refused, and it would be again). After one,
// the next Send is a new request with a new key. Anything else (no answer, a 409 while the first request is
// still in progress, a 5xx) leaves the ticket maybe made: retry with the same key.
export const isDefiniteAnswer = (status: number): boolean =>
	(status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409);

export type Route = (request: Request) => Promise<Response>;
// Where the two routes are served: POST /api/tickets and POST /webhooks.
export type RouteName = 'tickets' | 'webhooks';
export const routePaths: Record<RouteName, string> = { tickets: '/api/tickets', webhooks: '/webhooks' };

// The answer saved with a key, to hand back byte for byte: the status and the exact body text.
export type SavedResponse = { status: number; body: string };
export type KeyRecord = {
	client: string;
	key: string;
	fingerprint: string;
	response: SavedResponse;
	createdAt: Date;
};
export type StoredReceipt = Receipt & { receivedAt: Date };
export type { EventIdentity };

export interface Transaction {
	lockKey(client: string, key: string): Promise<boolean>;
	findKey(client: string, key: string): Promise<KeyRecord | null>;
	saveKey(record: KeyRecord): Promise<void>;
	forgetKey(client: string, key: string): Promise<void>;
	createTicket(draft: Omit<Ticket, 'id'>): Promise<number>;
	findReceipt(event: EventIdentity): Promise<StoredReceipt | null>;
	saveReceipt(receipt: StoredReceipt): Promise<void>;
	forgetReceipt(event: EventIdentity): Promise<void>;
}

export interface Store {
	transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

// What the server remembers for a key: every first answer (Stripe, 500s included), or only the successes.
export type Remember = 'everything' | 'successes';
export const rememberPolicies: readonly Remember[] = ['everything', 'successes'];

export type EndpointOptions = {
	store: Store;
	remember: Remember;
	// How long a key (or a webhook's receipt) is kept, in milliseconds: a retry after that looks new.
	retention: number;
	// The time now: the harness moves it forward to play a retry a day later.
	now: () => Date;
	// The tenant whose form posts to /api/tickets.
	tenant: string;
};

export const hour = 60 * 60 * 1000;
export const defaultRetention = 24 * hour;
// The largest request body the server reads.
export const maxBodyBytes = rules.maxBodyBytes;
// The longest subject the tickets table holds, in code points.
export const maxSubjectLength = rules.maxSubjectLength;

// A failure answer in the shape of RFC 9457 (problem details for HTTP APIs).
export function problem(status: number, title: string, detail: string): Response {
	return new Response(JSON.stringify({ type: 'about:blank', title, status, detail }), {
		status,
		headers: { 'Content-Type': 'application/problem+json' }
	});
}

export function json(status: number, value: unknown): Response {
	return new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
}

// Two bodies that say the same thing, whatever their spacing or field order, get the same fingerprint.
export function fingerprint(body: unknown): string {
	return createHash('sha256').update(canonical(body)).digest('hex');
}

// Whether any text in the value, a field's name or a string, holds U+0000: PostgreSQL's text cannot.
export function holdsNul(value: unknown): boolean {
	if (typeof value === 'string') return value.includes('\u0000');
	if (Array.isArray(value)) return value.some(holdsNul);
	if (value !== null && typeof value === 'object')
		return Object.entries(value).some(([name, field]) => name.includes('\u0000') || holdsNul(field));
	return false;
}

// Whether any number in the value is beyond a double: JSON.parse makes 1e400 Infinity.
function holdsInfinity(value: unknown): boolean {
	if (typeof value === 'number') return !Number.isFinite(value);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsInfinity);
	return false;
}

// fatal: bytes that are not UTF-8 are refused, not turned into U+FFFD; ignoreBOM: a BOM stays, and is not JSON.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// The request's JSON body, or the 4xx to answer instead: a wrong content type, too big, not UTF-8, not JSON,
// or a number beyond a double. Each is refused here, before any transaction.
export async function readJson(request: Request): Promise<{ body: unknown } | { refused: Response }> {
	const type = (request.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
	if (type !== 'application/json')
		return {
			refused: problem(415, 'Unsupported Media Type', `send the body as application/json, not "${type}"`)
		};
	const bytes = await bodyBytes(request);
	if (bytes.length > maxBodyBytes)
		return { refused: problem(413, 'Content Too Large', `the body is over ${maxBodyBytes} bytes`) };
	let body: unknown;
	try {
		body = JSON.parse(utf8.decode(bytes));
	} catch (error) {
		return { refused: refuse(error instanceof SyntaxError ? 'not-json' : 'not-utf-8') };
	}
	// Valid JSON, but a number no double holds (1e400) reads as Infinity, which the fingerprint writes as null.
	if (holdsInfinity(body)) return { refused: refuse('number-range') };
	return { body };
}
