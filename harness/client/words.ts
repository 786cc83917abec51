// The lesson's plain words for what a form showed, what a request carried, and what a journey step did.
import type { ClientJourney, ExpectedReply, Fate, Step } from './journeys.ts';
import type { Reply } from './fake-endpoint.ts';
import { canonical } from '../endpoint/contract.ts';

export function saidState(state: unknown): string {
	if (state === null || typeof state !== 'object') return `returned ${String(state)}`;
	const s = state as Record<string, unknown>;
	switch (s.kind) {
		case 'editing':
			return 'editing';
		case 'sending':
			return 'sending…';
		case 'unsure':
			return s.status === null ? 'unsure (no answer)' : `unsure (HTTP ${s.status})`;
		case 'created':
			return s.ticketId === null ? 'created' : `created #${s.ticketId}`;
		case 'refused':
			return `refused (HTTP ${s.status})`;
		default:
			return `returned ${JSON.stringify(state)}`;
	}
}

export function saidBody(body: unknown): string {
	const keys = body !== null && typeof body === 'object' ? Object.keys(body) : [];
	if (keys.length === 1 && typeof (body as { subject?: unknown }).subject === 'string')
		return JSON.stringify((body as { subject: string }).subject);
	return canonical(body);
}

export function saidReply(reply: Reply | ExpectedReply | null): string {
	if (reply === null) return 'never arrived';
	const ticket = reply.ticketId === null ? '' : ` #${reply.ticketId}`;
	return `${reply.status}${ticket}${reply.replayed ? ' replayed' : ''}`;
}

export function saidRequest(key: unknown, body: unknown): string {
	return `${typeof key === 'string' ? key : `key ${String(key)}`} ${saidBody(body)}`;
}

const fates: Record<Fate, string> = {
	answered: 'the reply arrives',
	'answer-lost': 'the reply is lost',
	'request-lost': 'the request is lost on the way',
	held: 'the endpoint is still working on it',
	'server-fails': 'the endpoint fails before saving anything'
};

// "step 2 (send from support: the reply is lost)"
export function describeStep(journey: ClientJourney, index: number): string {
	const step = journey.steps[index]!;
	const note = step.note ? `; ${step.note}` : '';
	return `step ${index + 1} (${saidStep(step)}${note})`;
}

export function saidStep(step: Step): string {
	switch (step.do) {
		case 'type':
			return `type ${JSON.stringify(step.subject)} into ${step.form}`;
		case 'edit':
			return `edit ${step.form}'s subject to ${JSON.stringify(step.subject)}`;
		case 'send':
			return `send from ${step.form}: ${fates[step.fate!]}`;
		case 'release':
			return `request ${step.number} finishes: ${fates[step.fate!]}`;
		case 'reload':
			return 'the tab reloads';
		case 'store':
			return `something else writes ${JSON.stringify(step.value)} to ${step.item}`;
		case 'break-storage':
			return 'the storage starts failing, as a full or refused one does';
	}
}
