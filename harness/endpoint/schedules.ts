// The endpoint schedules (schedules/endpoint/): requests over HTTP, faults, clock moves, and what must follow.
import type { Receipt, Ticket } from '../core/model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';
import { formClient } from '../client/model.ts';
import { rules, type Remember, type RouteName, type Rule } from './contract.ts';
import type { Fault } from './faults.ts';

export type ExpectedAnswer = {
	status: number | null;
	// The refusal by this name in rules.json: its status, words, Link, and Retry-After on a 409.
	rule?: Rule;
	json?: unknown;
	sameAs?: number;
	replayed?: boolean;
	problem?: string;
};
// A schedule's faults: all of the harness's but 'held-before-writes', which only the client journeys use.
export type ScheduleFault = Exclude<Fault, 'held-before-writes'>;
export type Send = {
	do: 'send';
	note?: string;
	route: RouteName;
	// Who sends it: Authorization: Bearer <client>, defaultClient when left out; authorization is the header's
	// exact text instead, and anonymous sends none.
	client?: string;
	authorization?: string;
	anonymous?: true;
	query?: string;
	key?: string;
	// The key sent on these header lines, one each, instead of key.
	keyLines?: string[];
	json?: unknown;
	text?: string;
	subjectBytes?: number;
	base64?: string;
	contentType?: string;
	fault: ScheduleFault;
	waits?: boolean;
	expect: ExpectedAnswer;
};
export type Release = { do: 'release'; note?: string; request: number };
export type Wait = { do: 'wait'; note?: string; minutes: number };
export type Step = Send | Release | Wait;
// The moment every schedule starts at; wait steps move it on.
export const scheduleStart = Date.parse('2026-03-02T09:00:00Z');
// How long a request may take before the player says it never answered (it only bounds a hang).
export const answerLimitMs = 10_000;

// The client a send comes from when the schedule names none: 04's form.
export const defaultClient = formClient;

// The body a send carries, as the bytes that go over the wire.
export function bodyOf(send: Send): string | Buffer {
	if (send.base64 !== undefined) return Buffer.from(send.base64, 'base64');
	if (send.text !== undefined) return send.text;
	if (send.subjectBytes !== undefined) return JSON.stringify({ subject: 'x'.repeat(send.subjectBytes) });
	return JSON.stringify(send.json);
}

type SavedKeyExpected = { client?: string; key: string; status: number };
export type EndpointSchedule = {
	name: string;
	title: string;
	order?: number;
	story: string;
	remember: Remember[];
	retentionHours?: number;
	steps: Step[];
	end: { tickets: Ticket[]; keys: SavedKeyExpected[]; receipts: Receipt[] };
};

const check: Check<EndpointSchedule> = (schedule, fail) => {
	const held = new Map<number, number>(); // request number → the step that sent it
	const waiting: number[] = [];
	let sent = 0;
	schedule.steps.forEach((step, i) => {
		const at = `steps[${i}]`;
		if (step.do === 'send') {
			sent += 1;
			const bodies = (['json', 'text', 'subjectBytes', 'base64'] as const).filter(
				(field) => step[field] !== undefined
			);
			if (bodies.length !== 1)
				fail(
					at,
					`give the body exactly one way: json, text, subjectBytes or base64 (found ${bodies.join(', ') || 'none'})`
				);
			const { sameAs, status } = step.expect;
			if (step.key !== undefined && step.keyLines !== undefined)
				fail(at, 'give the key one way: key or keyLines');
			const who = (['client', 'authorization', 'anonymous'] as const).filter(
				(field) => step[field] !== undefined
			);
			if (step.expect.rule !== undefined && !(step.expect.rule in rules.problems))
				fail(`${at}.expect.rule`, `no rule is called "${step.expect.rule}" in rules.json`);
			if (who.length > 1) fail(at, `say who sends it one way (found ${who.join(', ')})`);
			if (sameAs !== undefined && sameAs >= sent)
				fail(`${at}.expect.sameAs`, `must name an earlier request (this is request ${sent})`);
			if (status === null && Object.keys(step.expect).length > 1)
				fail(`${at}.expect`, 'no answer arrives, so there is nothing else to expect');
			if (step.fault === 'held') held.set(sent, i);
			if (step.waits) {
				if (held.size === 0) fail(`${at}.waits`, 'a request can only wait on one that is held');
				waiting.push(sent);
			}
		}
		if (step.do === 'release') {
			if (!held.has(step.request))
				fail(`${at}.request`, `request ${step.request} was not sent held earlier, or was already released`);
			held.delete(step.request);
			waiting.length = 0;
		}
	});
	for (const [number, step] of held)
		fail(`steps[${step}].fault`, `request ${number} is held and never released`);
	if (waiting.length) fail('steps', `request ${waiting[0]} waits, but nothing is released after it`);
	schedule.end.tickets.forEach((ticket, i) => {
		if (ticket.id !== i + 1) fail(`end.tickets[${i}].id`, `tickets count up from 1: expected ${i + 1}`);
	});
};

export function endpointSchedules() {
	return loadSchedules<EndpointSchedule>('endpoint', check);
}

export function loadEndpointSchedule(path: string) {
	return loadSchedule<EndpointSchedule>('endpoint', path, check);
}
