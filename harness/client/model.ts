// The Send button's side of the lesson: a form that keeps one key per request the user means to send.

// What the support form sends: the body of a new ticket.
export type TicketBody = { subject: string };

// A submission whose outcome is not known yet: the key it was sent with, and exactly what was sent.
export type Pending<T> = { key: string; body: T };

// The part of Web Storage (sessionStorage) the form uses.
export type KeyStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface Submissions<T> {
	pending(): Pending<T> | null;
	begin(body: T): Pending<T>;
	finish(): void;
}

// Who the form is to the ticket endpoint: it sends Authorization: Bearer form, and its keys are its own (06's
// endpoint scopes each key to the client that sent it). The harness hands out this name as the token; a real
// server would hand out a secret one and look it up.
export const formClient = 'form';
export const formAuthorization = `Bearer ${formClient}`;

// What came back for one request: a reply with its HTTP status, or nothing at all.
export type Answer = { kind: 'reply'; status: number; ticketId: number | null } | { kind: 'no-answer' };

// What the form shows: one value, so it can't be "created" and "unsure" at once.
export type FormState =
	| { kind: 'editing' }
	| { kind: 'sending' }
	| { kind: 'unsure'; status: number | null }
	| { kind: 'created'; ticketId: number | null }
	| { kind: 'refused'; status: number };

// The fields are locked from Send until a definite answer, while the form shows sending or unsure: a
// different request must not go out under this key. Takes whatever a form shows, a learner's included.
export const isLocked = (shows: unknown): boolean => {
	const kind = (shows as { kind?: unknown } | null)?.kind;
	return kind === 'sending' || kind === 'unsure';
};

export type FormStateKind = FormState['kind'];
export const formStateKinds: readonly FormStateKind[] = [
	'editing',
	'sending',
	'unsure',
	'created',
	'refused'
];

// Where a form keeps its unfinished submission: one storage entry per form.
export function entryName(form: string): string {
	return `pending-submission:${form}`;
}
