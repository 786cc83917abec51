// Requests handed to the learner's routes directly, with no HTTP between: what the crash points, the overlaps
// and the model-based properties play (crash-points.ts, overlaps.ts, properties.ts), and how they are said.
//
//   const sequence: Sequence = { remember: 'everything', retentionHours: 24, steps: [
//   	{ do: 'send', route: 'tickets', key: 'k-1', json: { subject: 'Printer' } },
//   	{ do: 'wait', minutes: 25 * 60 } ] };
//   const routes = buildRoutes(code, sequence, store, clock);   // code.tickets(options), code.webhooks(options)
//   const answer = await call(routes, send);                    // { status, body, replayed }
//   saidSend(sequence.steps, 0);                                // 'request 1 (POST /api/tickets, key "k-1", …)'
import {
	canonical,
	hour,
	routePaths,
	type Remember,
	type Route,
	type RouteName,
	type Store
} from './contract.ts';
import type { EndpointCode } from './play.ts';
import { bodyText } from './bodies.ts';
import { formAuthorization } from '../client/model.ts';

// stepFails: the ticket's insert throws, as a schedule's 'step-fails' makes it.
export type Call = { do: 'send'; route: RouteName; key?: string; json: unknown; stepFails?: boolean };
export type Pause = { do: 'wait'; minutes: number };
export type Sequence = { remember: Remember; retentionHours: number; steps: (Call | Pause)[] };
export type Answer = { status: number; body: string; replayed: boolean };
export type Routes = Record<RouteName, Route>;
// The clock a sequence moves on: wait steps add to it.
export type Clock = { time: number };
export const sequenceStart = Date.parse('2026-03-02T09:00:00Z');

export function buildRoutes(code: EndpointCode, sequence: Sequence, store: Store, clock: Clock): Routes {
	const options = {
		store,
		remember: sequence.remember,
		retention: sequence.retentionHours * hour,
		now: () => new Date(clock.time),
		tenant: 'acme'
	};
	return { tickets: code.tickets(options), webhooks: code.webhooks(options) };
}

export function requestOf(send: Call): Request {
	// Every call comes from 04's form: keys per client are pinned by the schedules (keys-belong-to-their-client).
	const headers: Record<string, string> = {
		'content-type': 'application/json',
		authorization: formAuthorization
	};
	if (send.key !== undefined) headers['idempotency-key'] = send.key;
	const url = `http://workbook.test${routePaths[send.route]}`;
	return new Request(url, { method: 'POST', headers, body: JSON.stringify(send.json) });
}

export async function call(routes: Routes, send: Call): Promise<Answer> {
	const response = await routes[send.route](requestOf(send));
	const body = await bodyText(response);
	return { status: response.status, body, replayed: response.headers.get('idempotent-replayed') === 'true' };
}

const sends = (steps: Sequence['steps']) => steps.filter((step): step is Call => step.do === 'send');

// "request 2 (POST /api/tickets, key "k-1" again, another body: {"subject":"Printer","x":1})"
export function saidSend(steps: Sequence['steps'], index: number): string {
	const send = steps[index] as Call;
	const number = sends(steps.slice(0, index + 1)).length;
	const notes = [`POST ${routePaths[send.route]}`];
	if (send.route === 'tickets') {
		const earlier = sends(steps.slice(0, index)).filter((other) => other.key === send.key);
		if (send.key === undefined) notes.push('no Idempotency-Key');
		else notes.push(`key ${JSON.stringify(send.key)}${earlier.length ? ' again' : ''}`);
		const same = earlier.length ? canonical(earlier[0]!.json) === canonical(send.json) : null;
		const body = JSON.stringify(send.json);
		notes.push(same === null ? body : `${same ? 'the same body' : 'another body'}: ${body}`);
	} else notes.push(JSON.stringify(send.json));
	if (send.stepFails) notes.push("the ticket's insert fails");
	return `request ${number} (${notes.join(', ')})`;
}

export function saidStep(steps: Sequence['steps'], index: number): string {
	const step = steps[index]!;
	if (step.do === 'send') return saidSend(steps, index);
	const hours = step.minutes / 60;
	return `wait ${Number.isInteger(hours) ? `${hours} hours` : `${step.minutes} minutes`}`;
}

// The whole sequence, one step a line, with its settings: the words a failure prints.
export function saidSequence(sequence: Sequence): string {
	const lines = sequence.steps.map((_, i) => `  ${i + 1}. ${saidStep(sequence.steps, i)}`);
	return [`remember: "${sequence.remember}", retentionHours: ${sequence.retentionHours}`, ...lines].join(
		'\n'
	);
}

export function saidAnswer(answer: Answer | null): string {
	if (!answer) return 'no answer';
	const body = answer.body.length > 70 ? `${answer.body.slice(0, 67)}…` : answer.body;
	return `${answer.status} ${body}${answer.replayed ? ' (replayed)' : ''}`;
}
