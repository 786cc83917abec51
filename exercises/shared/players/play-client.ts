// Plays a client journey: a tab with forms, a network that loses and holds requests, and the fake endpoint.
import type { ClientJourney, ClientName, Fate } from '../loaders/client-journeys.ts';
import { MemoryStorage } from '../fakes/memory-storage.ts';
import type { Ticket } from '../model/model.ts';
import type { Answer, FormState, KeyStore, Submissions, TicketBody } from '../model/send-button.ts';
import { TicketEndpoint, type Reply } from '../fakes/ticket-endpoint.ts';

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

type OnPage = { client: FormClient; fields: TicketBody; shows: unknown };
type InFlight = SentRequest & { form: string; page: number; arrival: number | null };

const noAnswer: Answer = { kind: 'no-answer' };
// A form locks its fields from Send until a definite answer: while it shows sending or unsure.
export const isLocked = (shows: unknown): boolean => {
	const kind = (shows as { kind?: unknown } | null)?.kind;
	return kind === 'sending' || kind === 'unsure';
};
// What goes over the wire is JSON: the endpoint sees a copy, never the form's own object.
const onTheWire = (body: unknown): unknown =>
	body === undefined ? undefined : JSON.parse(JSON.stringify(body));

export function playJourney(journey: ClientJourney, code: KeyStoreCode | null): Played {
	const clients: Record<ClientName, ClientMaker | null> = {
		'key-store': code && keyStoreClient(code),
		'new-key-per-attempt': newKeyPerAttempt
	};
	const maker = clients[journey.client];
	if (!maker) throw new Error(`journey "${journey.name}" needs the key store's code to play`);
	const storage = new MemoryStorage();
	const endpoint = new TicketEndpoint();
	let keysMade = 0;
	const newKey = () => `key-${++keysMade}`;
	let page = 0;
	let forms = new Map<string, OnPage>();
	const requests: InFlight[] = [];
	const steps: PlayedStep[] = [];
	const events: Event[] = [];

	function open() {
		page += 1;
		forms = new Map();
		for (const form of journey.forms) {
			const client = maker!(storage, form, newKey);
			const { fields, shows } = client.opened();
			const restored = fields !== null && typeof fields === 'object' ? { ...fields } : { subject: '' };
			forms.set(form, { client, fields: restored, shows });
		}
	}
	// An answer reaches its form, unless the page that sent it is gone.
	function deliver(request: InFlight, answer: Answer) {
		if (request.page !== page) return;
		events.push({ heard: request.number, answer });
		const onPage = forms.get(request.form)!;
		onPage.shows = onPage.client.hear(answer);
	}
	function settle(request: InFlight, fate: Fate) {
		request.reply = endpoint.respond(request.arrival!, fate === 'server-fails' ? 'before-commit' : 'none');
		const { status, ticketId } = request.reply;
		deliver(request, fate === 'answer-lost' ? noAnswer : { kind: 'reply', status, ticketId });
	}

	let current = -1;
	try {
		open();
		for (const [i, step] of journey.steps.entries()) {
			current = i;
			let sent: InFlight | null = null;
			let locked = false;
			const onPage = step.form === undefined ? undefined : forms.get(step.form)!;
			switch (step.do) {
				case 'type':
				case 'edit':
					// The fields are locked while the outcome is unknown: Try again sends what was sent.
					locked = isLocked(onPage!.shows);
					if (!locked) onPage!.fields = { ...onPage!.fields, subject: step.subject! };
					break;
				case 'send': {
					onPage!.shows = { kind: 'sending' };
					const { key, body } = onPage!.client.send({ ...onPage!.fields });
					const number = requests.length + 1;
					sent = { number, key, body: onTheWire(body), reply: null, form: step.form!, page, arrival: null };
					requests.push(sent);
					events.push({ sent: number });
					if (step.fate === 'request-lost') deliver(sent, noAnswer);
					else {
						const header = typeof key === 'string' ? key : null;
						sent.arrival = endpoint.arrive({ key: header, body: sent.body });
						if (step.fate !== 'held') settle(sent, step.fate!);
					}
					break;
				}
				case 'release':
					settle(requests[step.number! - 1]!, step.fate!);
					break;
				case 'reload':
					open();
					break;
				case 'store':
					storage.put(step.item!, step.value!);
					break;
				case 'break-storage':
					storage.fail();
					break;
			}
			const shows = Object.fromEntries([...forms].map(([form, { shows }]) => [form, shows]));
			steps.push({ request: sent, shows, locked });
		}
		current = journey.steps.length;
	} catch (error) {
		return { steps, events, requests, tickets: endpoint.state().tickets, threw: { step: current, error } };
	}
	return { steps, events, requests, tickets: endpoint.state().tickets, threw: null };
}
