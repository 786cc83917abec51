// Plays an endpoint schedule: the learner's routes served over real HTTP, on empty tables of a real PostgreSQL.
//
//   const played = await playEndpoint(schedule, 'everything', code, postgresUrl);   // a URL, or a function giving one
//   judgeEndpoint(schedule, played);   // null, or the story of where it went another way (judge.ts)
//
// Each send goes out on a connection of its own while it is in flight (node:http, the server's own client, whose
// connections are kept for the next send; or, for a header with a control character that node:http refuses to
// send, the bytes written on a new socket by raw-http.ts), carrying the harness's Workbook-Request header so
// the server finds its Plan. A held request is sent, then the player waits until it is just before its commit;
// a request that waits is sent, then the player waits until PostgreSQL shows a connection waiting on a lock.
// Neither wait is a timer that decides the outcome: each only guards against a request that never gets there.
// A held request let go runs first: the others in flight wait their turn until it has answered or waits on a
// lock, so the same code ends the same way on every run, however busy the machine.
// Before the first request goes out, it is handed to its route directly (stub-check.ts): a route that is still
// the stub ends the play there, with the same NotWrittenYet recorded, and no request crosses the network.
import { request as httpRequest, type Agent } from 'node:http';
import {
	defaultRetention,
	hour,
	maxBodyBytes,
	routePaths,
	type EndpointOptions,
	type Remember,
	type Route
} from './contract.ts';
import { Plan } from './faults.ts';
import type { StoreContents } from './postgres-store.ts';
import {
	answerLimitMs,
	bodyOf,
	defaultClient,
	scheduleStart,
	type EndpointSchedule,
	type Send
} from './schedules.ts';
import { storeFor, type PlayStore, type PostgresUrl } from './store-on-first-use.ts';
import { planHeader, serve, type Served } from './server.ts';
import { stubAtFirstRequest } from './stub-check.ts';
import { sendRaw } from './raw-http.ts';

// The learner's two routes, as the schedules build them.
export type EndpointCode = {
	tickets: (options: EndpointOptions) => Route;
	webhooks: (options: EndpointOptions) => Route;
};

export type Answer = {
	status: number;
	headers: Record<string, string>;
	body: string;
};
// What became of one request: its answer, or null when the connection closed without one.
// settled: the answer (or its absence) is known; false when the player stopped before it came.
export type Outcome = { number: number; step: number; answer: Answer | null; settled: boolean };
export type PlayedEndpoint = {
	remember: Remember;
	outcomes: Outcome[];
	// Where the player had to stop: a request that never answered, or code that threw while being built.
	stopped: { step: number; why: string } | null;
	thrown: Served['thrown'];
	end: StoreContents | null;
};

// A header's text as its UTF-8 bytes on the wire, as Go sends it (node:http writes a string as Latin-1).
const onTheWire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

// The headers a send carries: its content type, its caller (Authorization: Bearer <client>) and its key,
// on one header line or on several.
export function headersOf(send: Send): Record<string, string | string[]> {
	const headers: Record<string, string | string[]> = {
		'content-type': send.contentType ?? 'application/json'
	};
	if (send.authorization !== undefined) headers['authorization'] = onTheWire(send.authorization);
	else if (!send.anonymous) headers['authorization'] = `Bearer ${send.client ?? defaultClient}`;
	if (send.key !== undefined) headers['idempotency-key'] = onTheWire(send.key);
	if (send.keyLines !== undefined) headers['idempotency-key'] = send.keyLines.map(onTheWire);
	return headers;
}

// A control character that node:http refuses to send (HTTP forbids it): a step with one is written raw.
const holdsControl = (text: string) => /[\x00-\x08\x0a-\x1f\x7f]/.test(text);

// A send written byte for byte on a socket (raw-http.ts): its header lines as they are, each value's UTF-8 bytes.
async function postRaw(url: string, target: string, headers: Record<string, string | string[]>, send: Send) {
	const lines = Object.entries(headers).flatMap(([name, values]) =>
		[values].flat().map((value): [string, string] => [name, Buffer.from(value, 'latin1').toString('utf8')])
	);
	const body = bodyOf(send);
	const answer = await sendRaw(url, { path: target, headers: lines, body: Buffer.from(body) });
	if (answer === null) return null;
	const answerHeaders: Record<string, string> = {};
	for (const [name, value] of answer.headers)
		answerHeaders[name] = name in answerHeaders ? `${answerHeaders[name]}, ${value}` : value;
	return { status: answer.status, headers: answerHeaders, body: answer.body.toString() };
}

export function post(
	url: string,
	path: string,
	send: Send,
	number: number,
	agent: Agent | false = false
): Promise<Answer | null> {
	const headers = { ...headersOf(send), [planHeader]: String(number) };
	if (Object.values(headers).flat().some(holdsControl))
		return postRaw(url, `${path}${send.query ?? ''}`, headers, send);
	const target = `${url}${path}${send.query ?? ''}`;
	return new Promise((resolve) => {
		const outgoing = httpRequest(target, { method: 'POST', headers, agent }, (incoming) => {
			const chunks: Buffer[] = [];
			incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
			incoming.on('end', () => {
				const answerHeaders: Record<string, string> = {};
				for (const [name, value] of Object.entries(incoming.headers))
					if (typeof value === 'string') answerHeaders[name] = value;
				resolve({
					status: incoming.statusCode ?? 0,
					headers: answerHeaders,
					body: Buffer.concat(chunks).toString()
				});
			});
			incoming.on('error', () => resolve(null));
		});
		// The connection closed with no answer: the worker died, or the answer was lost.
		outgoing.on('error', () => resolve(null));
		outgoing.end(bodyOf(send));
	});
}

class NoAnswer extends Error {}

// The promise, or NoAnswer(why) once ms have passed: it only bounds a hang (journeys.ts uses it too).
export function within<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
	let timer: NodeJS.Timeout;
	const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new NoAnswer(why)), ms)));
	return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// Resolves once PostgreSQL shows a connection of this store waiting on a lock, or the request has answered.
// It looks again after 1 ms, then 2, 4, 8 and every 10 ms: a request usually waits within a few milliseconds.
async function blocked(store: PlayStore, answered: Promise<unknown>): Promise<void> {
	let done = false;
	void answered.then(() => (done = true));
	for (let pause = 1; !done && (await store.waitingOnLocks()) === 0; pause = Math.min(pause * 2, 10))
		await new Promise((r) => setTimeout(r, pause));
}

// A play under way: the routes' clock, the server once one is needed, the requests sent and those held.
type Playing = {
	store: PlayStore;
	time: number;
	server: Served | null;
	sent: number;
	outcomes: Outcome[];
	pending: Map<number, Promise<Answer | null>>;
	held: Set<number>;
};

// The schedule's steps in turn on the learner's routes: what each request got, and what the tables hold.
export async function playEndpoint(
	schedule: EndpointSchedule,
	remember: Remember,
	code: EndpointCode,
	postgresUrl: PostgresUrl
): Promise<PlayedEndpoint> {
	const store = await storeFor(postgresUrl);
	const playing: Playing = {
		store,
		time: scheduleStart,
		server: null,
		sent: 0,
		outcomes: [],
		pending: new Map(),
		held: new Set()
	};
	const options: EndpointOptions = {
		store,
		remember,
		retention: schedule.retentionHours === undefined ? defaultRetention : schedule.retentionHours * hour,
		now: () => new Date(playing.time),
		tenant: 'acme'
	};
	// Built before anything is sent: a route that throws while it is built ends the play here.
	const routes = {
		[routePaths.tickets]: code.tickets(options),
		[routePaths.webhooks]: code.webhooks(options)
	};
	const stubThrown: Served['thrown'] = [];
	let stopped: PlayedEndpoint['stopped'] = null;
	let step = -1;
	try {
		for (const [i, current] of schedule.steps.entries()) {
			step = i;
			if (current.do === 'wait') playing.time += current.minutes * 60_000;
			if (current.do === 'send') {
				if (playing.sent === 0 && (await stubAt(current, code, options, stubThrown))) {
					stopped = { step: i, why: 'request 1 met a route that is not written yet' };
					break;
				}
				await sendOne(playing, current, i, routes);
			}
			if (current.do === 'release') await releaseOne(playing, current.request);
		}
	} catch (error) {
		if (!(error instanceof NoAnswer)) {
			await playing.server?.close();
			throw error;
		}
		stopped = { step, why: error.message };
	}
	const thrown = playing.server?.thrown ?? stubThrown;
	const end = await contentsAtTheEnd(playing, stopped);
	return { remember, outcomes: playing.outcomes, stopped, thrown, end };
}

// One request out, on a server started for the first that really goes out (a stub never needs one). Then it
// waits: a held request until just before its commit, one that waits until it is on a lock, else the answer.
async function sendOne(playing: Playing, send: Send, step: number, routes: Record<string, Route>) {
	playing.server ??= await serve(routes, { keepAlive: true });
	const number = ++playing.sent;
	const plan = new Plan(send.fault);
	playing.server.plans.set(String(number), plan);
	const answer = post(playing.server.url, routePaths[send.route], send, number, playing.server.agent);
	playing.pending.set(number, answer);
	playing.outcomes.push({ number, step, answer: null, settled: false });
	const why = `request ${number} never reached its commit, and got no answer`;
	if (send.fault === 'held') await within(Promise.race([plan.reachedHold, answer]), answerLimitMs, why);
	else if (send.waits) await within(blocked(playing.store, answer), answerLimitMs, why);
	else if (playing.held.size > 0) await settleBesideHeld(playing, number, answer);
	else await settle(playing, number);
	if (send.fault === 'held') playing.held.add(number);
}

// Beside a request held before its commit, one that waits on a lock would wait forever: it stops, told why.
async function settleBesideHeld(playing: Playing, number: number, answer: Promise<Answer | null>) {
	let answered = false;
	void answer.then(() => (answered = true));
	await within(blocked(playing.store, answer), answerLimitMs, `request ${number} got no answer`);
	if (!answered) {
		const holders = [...playing.held].join(' and ');
		throw new NoAnswer(
			`request ${number} is waiting on a lock that request ${holders} holds (held just before its commit), so it would wait until that request ends. A request that finds its key in flight should not wait for it: answer 409 at once`
		);
	}
	await settle(playing, number);
}

// A held request let go on to its commit. It goes first: every other request in flight waits its turn
// (faults.ts) until the one let go has answered or waits on a lock, so which of two requests wins never
// depends on the machine's timing. Then every answer still to come is waited for.
async function releaseOne(playing: Playing, request: number) {
	playing.held.delete(request);
	const plans = playing.server!.plans;
	const others = [...playing.pending.keys()].filter((number) => number !== request);
	for (const number of others) plans.get(String(number))!.waitTurn();
	plans.get(String(request))!.release();
	const answer = playing.pending.get(request);
	try {
		if (answer)
			await within(goesFirst(playing, answer, others), answerLimitMs, `request ${request} got no answer`);
	} finally {
		for (const number of others) plans.get(String(number))!.yourTurn();
	}
	for (const number of [...playing.pending.keys()]) await settle(playing, number);
}

// Resolves once the request let go has answered, or waits on a lock while every other one sits at its turn
// (so the connection waiting is the one let go: a request at its turn waits for no lock).
async function goesFirst(playing: Playing, answer: Promise<unknown>, others: number[]): Promise<void> {
	let done = false;
	void answer.then(() => (done = true));
	const plans = playing.server!.plans;
	const allAtTheirTurn = () => others.every((number) => plans.get(String(number))!.atItsTurn);
	for (let pause = 1; !done; pause = Math.min(pause * 2, 10)) {
		if (allAtTheirTurn() && (await playing.store.waitingOnLocks()) > 0) return;
		await new Promise((r) => setTimeout(r, pause));
	}
}

// The request's answer is in, or it got none (within the limit): its outcome says which.
async function settle(playing: Playing, number: number) {
	const answer = await within(playing.pending.get(number)!, answerLimitMs, `request ${number} got no answer`);
	playing.pending.delete(number);
	const outcome = playing.outcomes.find((outcome) => outcome.number === number)!;
	outcome.answer = answer;
	outcome.settled = true;
}

// What the tables hold at the end (nothing, when the play stopped early); the server closes either way.
async function contentsAtTheEnd(playing: Playing, stopped: PlayedEndpoint['stopped']) {
	try {
		return stopped ? null : await playing.store.contents();
	} finally {
		await playing.server?.close();
	}
}

// The first request's route asked whether it is a stub (stub-check.ts): its NotWrittenYet is recorded as the
// server would record it, and the play ends there. A body over the limit never reaches a route: no check.
async function stubAt(
	send: Send,
	code: EndpointCode,
	options: EndpointOptions,
	thrown: Served['thrown']
): Promise<boolean> {
	const body = bodyOf(send);
	if (Buffer.byteLength(body) > maxBodyBytes) return false;
	const path = routePaths[send.route];
	const error = await stubAtFirstRequest(code[send.route], options, send.fault);
	if (error) thrown.push({ path, request: 1, error });
	return error !== null;
}
