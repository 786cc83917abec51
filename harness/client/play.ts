// Plays a client journey: a tab with forms, a network that loses and holds requests, and the fake endpoint.
import type { ClientJourney, ClientName, Fate, Step } from './journeys.ts';
import type { Ticket } from '../core/model.ts';
import type { Answer, FormState, KeyStore, Submissions, TicketBody } from './model.ts';
import { TicketEndpoint, type Reply } from './fake-endpoint.ts';
import { Tab } from './tab.ts';

// The learner's two functions, as the journeys call them.
export type KeyStoreCode = {
	submissions: <T>(storage: KeyStore, form: string, newKey?: () => string) => Submissions<T>;
	afterAnswer: <T>(submissions: Submissions<T>, answer: Answer) => FormState;
};

// What one form's code does on the page: open, send, and hear an answer.
export interface FormClient {
	opened(): { fields: TicketBody | null; shows: FormState };
	send(fields: TicketBody): { key: unknown; body: unknown };
	hear(answer: Answer): FormState;
}
export type ClientMaker = (storage: KeyStore, form: string, newKey: () => string) => FormClient;

// A problem with what the learner's code returned, said in the lesson's words.
export class YourCodeReturned extends Error {
	override name = 'YourCodeReturned';
}

export function keyStoreClient(code: KeyStoreCode): ClientMaker {
	return (storage, form, newKey) => {
		const store = code.submissions<TicketBody>(storage, form, newKey);
		return {
			opened() {
				const pending = store.pending();
				if (pending === null) return { fields: null, shows: { kind: 'editing' } };
				// The form puts the unfinished request back, and can't tell whether it went through.
				return { fields: pending.body, shows: { kind: 'unsure', status: null } };
			},
			send(fields) {
				const started = store.begin(fields);
				if (started === null || typeof started !== 'object')
					throw new YourCodeReturned(`begin() returned ${String(started)}, not { key, body }`);
				return { key: started.key, body: started.body };
			},
			hear: (answer) => code.afterAnswer(store, answer)
		};
	};
}

// The anti-pattern, given: a fresh key for every attempt, and "try again" after anything but a 2xx.
export const newKeyPerAttempt: ClientMaker = (_storage, _form, newKey) => ({
	opened: () => ({ fields: null, shows: { kind: 'editing' } }),
	send: (fields) => ({ key: newKey(), body: { ...fields } }),
	hear: (answer) => {
		if (answer.kind === 'reply' && answer.status >= 200 && answer.status < 300)
			return { kind: 'created', ticketId: answer.ticketId };
		return { kind: 'unsure', status: answer.kind === 'reply' ? answer.status : null };
	}
});

export type SentRequest = { number: number; key: unknown; body: unknown; reply: Reply | null };
// locked: a type or edit step the form refused, because its fields were locked.
export type PlayedStep = { request: SentRequest | null; shows: Record<string, unknown>; locked: boolean };
// What happened on the wire, in order: a request sent, or an answer a form heard.
export type Event = { sent: number } | { heard: number; answer: Answer };
export type Played = {
	steps: PlayedStep[];
	events: Event[];
	requests: SentRequest[];
	tickets: Ticket[];
	// Where the code under test threw, if it did: the step, or -1 while the page first opened.
	threw: { step: number; error: unknown } | null;
};

type InFlight = SentRequest & { form: string; page: number; arrival: number | null };

const noAnswer: Answer = { kind: 'no-answer' };
// What goes over the wire is JSON: the endpoint sees a copy, never the form's own object.
export const onTheWire = (body: unknown): unknown =>
	body === undefined ? undefined : JSON.parse(JSON.stringify(body));

// A journey on the fake endpoint: the tab, the endpoint, and the requests sent so far.
type OnFake = { tab: Tab; endpoint: TicketEndpoint; requests: InFlight[] };

// The journey step by step: what each step showed, what crossed the wire, and the tickets the endpoint made.
export function playJourney(journey: ClientJourney, code: KeyStoreCode | null): Played {
	const clients: Record<ClientName, ClientMaker | null> = {
		'key-store': code && keyStoreClient(code),
		'new-key-per-attempt': newKeyPerAttempt
	};
	const maker = clients[journey.client];
	if (!maker) throw new Error(`journey "${journey.name}" needs the key store's code to play`);
	const run: OnFake = { tab: new Tab(journey, maker), endpoint: new TicketEndpoint(), requests: [] };
	const steps: PlayedStep[] = [];
	let current = -1;
	let threw: Played['threw'] = null;
	try {
		run.tab.open();
		for (const [i, step] of journey.steps.entries()) {
			current = i;
			let sent: InFlight | null = null;
			let locked = false;
			if (step.do === 'send') sent = sendToFake(run, step);
			else if (step.do === 'release') settle(run, run.requests[step.number! - 1]!, step.fate!);
			else locked = run.tab.play(step);
			steps.push({ request: sent, shows: run.tab.shows(), locked });
		}
	} catch (error) {
		threw = { step: current, error };
	}
	return {
		steps,
		events: run.tab.events,
		requests: run.requests,
		tickets: run.endpoint.state().tickets,
		threw
	};
}

// The form sends: its code gives the key and the body. A lost request is never heard of again; any other
// arrives at the endpoint, and is answered there and then, unless it is held.
function sendToFake(run: OnFake, step: Step): InFlight {
	const onPage = run.tab.form(step.form!);
	onPage.shows = { kind: 'sending' };
	const { key, body } = onPage.client.send({ ...onPage.fields });
	const number = run.requests.length + 1;
	const sent: InFlight = {
		number,
		key,
		body: onTheWire(body),
		reply: null,
		form: step.form!,
		page: run.tab.page,
		arrival: null
	};
	run.requests.push(sent);
	run.tab.events.push({ sent: number });
	if (step.fate === 'request-lost') run.tab.deliver(sent, noAnswer);
	else {
		const header = typeof key === 'string' ? key : null;
		sent.arrival = run.endpoint.arrive({ key: header, body: sent.body });
		if (step.fate !== 'held') settle(run, sent, step.fate!);
	}
	return sent;
}

// The endpoint answers the request that arrived (its insert fails, when the fate says the server fails), and
// the answer reaches the form unless it is lost on the way.
function settle(run: OnFake, request: InFlight, fate: Fate) {
	request.reply = run.endpoint.respond(request.arrival!, fate === 'server-fails' ? 'before-commit' : 'none');
	const { status, ticketId } = request.reply;
	run.tab.deliver(request, fate === 'answer-lost' ? noAnswer : { kind: 'reply', status, ticketId });
}
