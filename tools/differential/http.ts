// The HTTP differential check: the TypeScript solution's POST /api/tickets and Go's answer alike over real
// HTTP, for request sequences nobody wrote.
//
//   npx tsx tools/differential/http.ts [--seed N] [--sequences N]
//
// The sequences come from a seed (http-sequences.ts). Each is played on empty tables by both servers
// (http-sides.ts), each on a PostgreSQL of its own, its requests written byte for byte on a socket
// (harness/endpoint/raw-http.ts). Compared, request by request: the status, the headers a client acts on (Content-Type,
// Idempotent-Replayed, Retry-After, Link, Location), and the body (as JSON when it is JSON, with ticket ids
// numbered in the order they first appear); then the tickets and the keys the tables hold at the end. The
// first difference in a sequence fails it, printing the request, both answers and the seed, so `--seed N`
// plays it again. npm run verify plays a fixed number of sequences with the day's seed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { canonical } from '#harness/core/canonical.ts';
import { startPostgres } from '#harness/postgres/server.ts';
import { seedOfTheDay } from './differential.ts';
import { everyKind, httpSequences, type HttpRequest, type HttpSequence } from './http-sequences.ts';
import { buildGoServer, goSide, typescriptSide, type Side, type SideEnd } from './http-sides.ts';
import { sendRaw, type RawAnswer } from '#harness/endpoint/raw-http.ts';
import { isMain } from '../../lib/main-module.ts';

export const comparedHeaders = [
	'content-type',
	'idempotent-replayed',
	'retry-after',
	'link',
	'location'
] as const;

// What a client sees of one answer, in a form two servers' answers can be compared in.
export type Seen = {
	status: number;
	headers: Partial<Record<(typeof comparedHeaders)[number], string[]>>;
	body: { json: unknown } | { text: string };
} | null;
export type PlayedSequence = { answers: { request: HttpRequest; seen: Seen }[]; end: SideEnd };

function seen(answer: RawAnswer | null): Seen {
	if (answer === null) return null;
	const headers: NonNullable<Seen>['headers'] = {};
	for (const name of comparedHeaders) {
		const values = answer.headers.filter(([n]) => n === name).map(([, value]) => value);
		if (values.length) headers[name] = values;
	}
	const text = answer.body.toString('utf8');
	try {
		return { status: answer.status, headers, body: { json: JSON.parse(text) } };
	} catch {
		return { status: answer.status, headers, body: { text } };
	}
}

const bodyBytes = (body: HttpRequest['body']) =>
	'text' in body ? Buffer.from(body.text, 'utf8') : Buffer.from(body.base64, 'base64');

function send(side: Side, request: HttpRequest, number: number): Promise<Seen> {
	const headers: [string, string][] = [...request.headers, ['Workbook-Request', String(number)]];
	return sendRaw(side.url, {
		path: `/api/tickets${request.query}`,
		headers,
		body: bodyBytes(request.body)
	}).then(seen);
}

// One sequence on one side, from empty tables: what each request got, and what the tables hold at the end.
export async function playSequence(side: Side, sequence: HttpSequence): Promise<PlayedSequence> {
	await side.reset(sequence.remember, sequence.retentionMs);
	const answers: PlayedSequence['answers'] = [];
	let number = 0;
	for (const step of sequence.steps) {
		if (step.do === 'wait') await side.advance(step.ms);
		else if (step.do === 'send') {
			await side.plan(++number, step.fault);
			answers.push({ request: step.request, seen: await send(side, step.request, number) });
		} else {
			const first = ++number;
			await side.plan(first, 'held');
			const held = send(side, step.first, first);
			await side.reached(first, held);
			const second = await send(side, step.second, ++number);
			await side.release(first);
			answers.push({ request: step.first, seen: await held }, { request: step.second, seen: second });
		}
	}
	return { answers, end: await side.end() };
}

// Ticket ids numbered by first appearance (in the answers, then the tables), so only the pattern is compared.
export function withIdsInOrder(played: PlayedSequence): { answers: Seen[]; end: SideEnd } {
	const ids = new Map<number, number>();
	const renumber = (id: number) => (ids.has(id) ? ids.get(id)! : (ids.set(id, ids.size + 1), ids.size));
	const answers = played.answers.map(({ seen }) => {
		if (seen === null || !('json' in seen.body)) return seen;
		const json = seen.body.json as { id?: unknown } | null;
		if (json === null || typeof json !== 'object' || typeof json.id !== 'number') return seen;
		return { ...seen, body: { json: { ...json, id: renumber(json.id) } } };
	});
	const tickets = [...(played.end.tickets ?? [])].map((ticket) => ({ ...ticket, id: renumber(ticket.id) }));
	const keys = [...(played.end.keys ?? [])].sort((a, b) =>
		a.client === b.client ? (a.key < b.key ? -1 : 1) : a.client < b.client ? -1 : 1
	);
	return { answers, end: { tickets: tickets.sort((a, b) => a.id - b.id), keys } };
}

// The same JSON, whatever the order of its fields: Go writes a problem's fields sorted, TypeScript as built.
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
// A text past 80 characters, shortened to its start and its length.
const shortened = (text: string) =>
	text.length > 80 ? `${text.slice(0, 60)}…(${text.length} characters)` : text;
// JSON, with the control characters JSON leaves as they are (DEL, and U+0080 to U+009F) written as escapes.
const visible = (value: unknown, replacer?: (key: string, value: unknown) => unknown) =>
	JSON.stringify(value, replacer)?.replace(
		/[\u007f-\u009f]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
	);
// The sequence as JSON, its long texts shortened.
const steps = (sequence: HttpSequence) =>
	visible(sequence.steps, (_, value) => (typeof value === 'string' ? shortened(value) : value));
// A request as a reader can take it in: the query, each header line, and the body, long texts shortened.
export function described(request: HttpRequest): string {
	const body = 'text' in request.body ? request.body.text : `(base64) ${request.body.base64}`;
	const headers = request.headers.map(([name, value]) => `${name}: ${visible(shortened(value))}`);
	return [`POST /api/tickets${request.query}`, ...headers, `body ${visible(shortened(body))}`].join(
		'\n      '
	);
}
const said = (answer: Seen) =>
	answer === null ? 'no answer (the connection closed)' : JSON.stringify(answer);

// The first difference between the two sides' plays of one sequence, told for a reader; null when they agree.
export function compareSequence(
	index: number,
	sequence: HttpSequence,
	[a, b]: [PlayedSequence, PlayedSequence],
	names: [string, string],
	seed: number
): string | null {
	const [left, right] = [withIdsInOrder(a), withIdsInOrder(b)];
	const again = `seed ${seed}; again with: npx tsx tools/differential/http.ts --seed ${seed}`;
	const where = `HTTP sequence ${index + 1} (remember: ${sequence.remember}; ${again})`;
	for (let i = 0; i < Math.max(left.answers.length, right.answers.length); i++) {
		if (same(left.answers[i], right.answers[i])) continue;
		return [
			`${where}: request ${i + 1} answered differently`,
			`  request:    ${described(a.answers[i]?.request ?? b.answers[i]!.request)}`,
			`  ${names[0].padEnd(11)} ${said(a.answers[i]?.seen ?? null)}`,
			`  ${names[1].padEnd(11)} ${said(b.answers[i]?.seen ?? null)}`,
			`  sequence:   ${steps(sequence)}`
		].join('\n');
	}
	for (const part of ['tickets', 'keys'] as const)
		if (!same(left.end[part], right.end[part]))
			return [
				`${where}: every answer agrees, but the ${part} left in the tables differ`,
				`  ${names[0].padEnd(11)} ${JSON.stringify(a.end[part])}`,
				`  ${names[1].padEnd(11)} ${JSON.stringify(b.end[part])}`,
				`  sequence:   ${steps(sequence)}`
			].join('\n');
	return null;
}

// Every sequence played by both sides, in turn: one problem for each sequence where they differ.
export async function playBoth(
	sides: [Side, Side],
	sequences: HttpSequence[],
	seed: number
): Promise<string[]> {
	const problems: string[] = [];
	for (const [index, sequence] of sequences.entries()) {
		const played: [PlayedSequence, PlayedSequence] = [
			await playSequence(sides[0], sequence),
			await playSequence(sides[1], sequence)
		];
		const problem = compareSequence(index, sequence, played, [sides[0].name, sides[1].name], seed);
		if (problem) problems.push(problem);
	}
	return problems;
}

export type HttpDifferential = { seed: number; sequences: number; requests: number; problems: string[] };

// The check as verify runs it: two PostgreSQL servers, Go's server built and started, every sequence played.
export async function httpDifferential(seed = seedOfTheDay(), count = 24): Promise<HttpDifferential> {
	const sequences = [...everyKind(), ...httpSequences(seed, count)];
	const requests = sequences
		.flatMap((s) => s.steps)
		.reduce((n, s) => n + (s.do === 'pair' ? 2 : s.do === 'send' ? 1 : 0), 0);
	const folder = mkdtempSync(join(tmpdir(), 'http-differential-'));
	const cleanups: (() => Promise<void>)[] = [];
	try {
		const [binary, forTs, forGo] = await Promise.all([
			buildGoServer(folder),
			startPostgres(),
			startPostgres()
		]);
		cleanups.push(forTs.stop, forGo.stop);
		const ts = await typescriptSide(forTs.url);
		cleanups.push(ts.close);
		const go = await goSide(forGo.url, binary);
		cleanups.push(go.close);
		return {
			seed,
			sequences: sequences.length,
			requests,
			problems: await playBoth([ts, go], sequences, seed)
		};
	} finally {
		for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
		rmSync(folder, { recursive: true, force: true });
	}
}

if (isMain(import.meta.url)) {
	const { values } = parseArgs({ options: { seed: { type: 'string' }, sequences: { type: 'string' } } });
	const started = Date.now();
	const result = await httpDifferential(
		values.seed ? Number(values.seed) : undefined,
		values.sequences ? Number(values.sequences) : undefined
	);
	for (const problem of result.problems.slice(0, 10)) console.log(problem);
	console.log(
		`http differential: ${result.sequences} sequences, ${result.requests} requests, seed ${result.seed}: ${result.problems.length ? `${result.problems.length} differ` : 'TypeScript and Go answer alike'} (${((Date.now() - started) / 1000).toFixed(1)}s)`
	);
	process.exitCode = result.problems.length ? 1 : 0;
}
