// The endpoint schedules (schedules/endpoint/): requests over HTTP, faults, clock moves, and what must follow.
import type { Receipt, Ticket } from '../core/model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';
import type { Remember, RouteName } from './contract.ts';
import type { Fault } from './faults.ts';

export type ExpectedAnswer = {
	status: number | null;
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
	key?: string;
	json?: unknown;
	text?: string;
	subjectBytes?: number;
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

// The body a send carries, as the text that goes over the wire.
export function bodyOf(send: Send): string {
	if (send.text !== undefined) return send.text;
	if (send.subjectBytes !== undefined) return JSON.stringify({ subject: 'x'.repeat(send.subjectBytes) });
	return JSON.stringify(send.json);
}

type SavedKeyExpected = { key: string; status: number };
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
			const bodies = (['json', 'text', 'subjectBytes'] as const).filter((field) => step[field] !== undefined);
			if (bodies.length !== 1)
				fail(
					at,
					`give the body exactly one way: json, text or subjectBytes (found ${bodies.join(', ') || 'none'})`
				);
			const { sameAs, status } = step.expect;
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
