// The client journeys: a user at a support form, what the network does with each request, and what must follow.
import type { Ticket } from '../core/model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';
import type { FormState, TicketBody } from './model.ts';

export type ClientName = 'key-store' | 'new-key-per-attempt';
export type StepKind = 'type' | 'edit' | 'send' | 'release' | 'reload' | 'store' | 'break-storage';
export type Fate = 'answered' | 'answer-lost' | 'request-lost' | 'held' | 'server-fails';

export type ExpectedReply = { status: number; ticketId: number | null; replayed: boolean };
export type ExpectedRequest = { key: string; body: TicketBody; reply: ExpectedReply | null };

// One step; which of the optional fields it has depends on `do` (the loader checks them).
export type Step = {
	do: StepKind;
	note?: string;
	form?: string;
	subject?: string;
	// type, edit: the form refused the change; its fields are locked while the outcome is unknown.
	locked?: true;
	fate?: Fate;
	request?: ExpectedRequest;
	number?: number;
	item?: string;
	value?: string;
	shows: Record<string, FormState>;
};

export type ClientJourney = {
	name: string;
	title: string;
	story: string;
	client: ClientName;
	forms: string[];
	steps: Step[];
	tickets: Ticket[];
};

const fields: Record<StepKind, (keyof Step)[]> = {
	type: ['form', 'subject'],
	edit: ['form', 'subject'],
	send: ['form', 'fate', 'request'],
	release: ['number', 'fate'],
	reload: [],
	store: ['item', 'value'],
	'break-storage': []
};
const always: (keyof Step)[] = ['do', 'note', 'shows'];
// Fields a step may leave out: an edit the form takes says nothing, one it refuses says locked.
const optional: Partial<Record<StepKind, (keyof Step)[]>> = { type: ['locked'], edit: ['locked'] };
const shownFields: Record<FormState['kind'], string[]> = {
	editing: [],
	sending: [],
	unsure: ['status'],
	created: ['ticketId'],
	refused: ['status']
};

const check: Check<ClientJourney> = (journey, fail) => {
	const held = new Map<number, number>(); // request number → the step that sent it
	let requests = 0;
	journey.steps.forEach((step, i) => {
		const at = `steps[${i}]`;
		const wanted = fields[step.do];
		for (const field of wanted)
			if (step[field] === undefined) fail(`${at}.${field}`, `missing: a ${step.do} step needs it`);
		for (const field of Object.keys(step) as (keyof Step)[])
			if (!always.includes(field) && !wanted.includes(field) && !optional[step.do]?.includes(field))
				fail(
					`${at}.${field}`,
					`not a field of a ${step.do} step (it takes ${[...wanted, ...(optional[step.do] ?? [])].join(', ') || 'none'})`
				);
		if (step.form !== undefined && !journey.forms.includes(step.form))
			fail(`${at}.form`, `"${step.form}" is not one of the forms (${journey.forms.join(', ')})`);
		if (step.do === 'send') {
			requests += 1;
			const lost = step.fate === 'request-lost';
			if (lost !== (step.request!.reply === null))
				fail(`${at}.request.reply`, lost ? 'must be null: the request never arrived' : 'needs the reply');
			if (step.fate === 'held') held.set(requests, i);
		}
		if (step.do === 'release') {
			if (!held.has(step.number!))
				fail(`${at}.number`, `request ${step.number} was not sent held earlier, or was already released`);
			if (step.fate === 'held' || step.fate === 'request-lost')
				fail(`${at}.fate`, `a released request is answered, loses its answer, or fails`);
			held.delete(step.number!);
		}
		const shown = Object.keys(step.shows);
		const missing = journey.forms.filter((form) => !shown.includes(form));
		const unknown = shown.filter((form) => !journey.forms.includes(form));
		if (missing.length) fail(`${at}.shows`, `says nothing about ${missing.join(', ')}`);
		if (unknown.length)
			fail(`${at}.shows.${unknown[0]}`, `not one of the forms (${journey.forms.join(', ')})`);
		for (const [form, state] of Object.entries(step.shows)) {
			const needs = shownFields[state.kind];
			for (const field of Object.keys(state).filter((f) => f !== 'kind'))
				if (!needs.includes(field)) fail(`${at}.shows.${form}.${field}`, `not a field of ${state.kind}`);
			for (const field of needs)
				if (!(field in state)) fail(`${at}.shows.${form}.${field}`, `missing: ${state.kind} needs it`);
			if (state.kind === 'refused' && state.status === null)
				fail(`${at}.shows.${form}.status`, 'a refusal has a status');
		}
	});
	for (const [number, step] of held)
		fail(`steps[${step}].fate`, `request ${number} is held and never released`);
	journey.tickets.forEach((ticket, i) => {
		if (ticket.id !== i + 1) fail(`tickets[${i}].id`, `tickets count up from 1: expected ${i + 1}`);
	});
};

export function clientJourneys() {
	return loadSchedules<ClientJourney>('client', check);
}

export function loadClientJourney(path: string) {
	return loadSchedule<ClientJourney>('client', path, check);
}
