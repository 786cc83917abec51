// Exercise 07's model: changes to a ticket that already exists (its status, a comment), what each one gets back,
// and the store; and ChangeHandler, which commits one change at a time the way exercise 02 did.
//
//   const handler = new ChangeHandler({ setStatus, addComment }, [{ id: 1, status: 'open', version: 1 }]);
//   handler.handle({ kind: 'set-status', changeId: 'chg-1', ticketId: 1, status: 'closed', decidedOn: 1 });
//                                   // { kind: 'set', status: 'closed', version: 2 }
//   handler.handle(change, 'after-commit'); // committed, then the worker dies: { kind: 'crashed' }
//   handler.snapshot();             // { tickets, receipts }: a deep copy
//
// The rules (setStatus, addComment) get a staged copy of the store and change it in place; handle() commits
// the copy with one assignment, so a worker that dies before its commit leaves nothing behind. A rule is
// only ever asked about a ticket that exists: the schedule loader checks that every change names one.
import type { Fault } from '../core/model.ts';

export type Status = 'open' | 'closed';
export const statuses: readonly Status[] = ['open', 'closed'];

// A change to one ticket. Its changeId is made once, when someone decides on the change, and kept across retries
// (like exercise 04's key). decidedOn is the ticket's version when the change was decided.
export type SetStatus = {
	kind: 'set-status';
	changeId: string;
	ticketId: number;
	status: Status;
	decidedOn: number;
};
export type AddComment = { kind: 'add-comment'; changeId: string; ticketId: number; text: string };
export type Change = SetStatus | AddComment;

// What the sender hears. 'stale' is the 409 of an HTTP API: refused, decide again on the version it names.
export type Answer =
	| { kind: 'set'; status: Status; version: number }
	| { kind: 'stale'; version: number }
	| { kind: 'commented'; comment: number }
	| { kind: 'crashed' };

// version counts the status changes; lastChange is the changeId that made the current version (null: none yet).
export type StatusTicket = {
	id: number;
	status: Status;
	version: number;
	lastChange: string | null;
	comments: string[];
};
// A ticket as a schedule starts it: no change has made its version, no comments yet.
export type StartTicket = Pick<StatusTicket, 'id' | 'status' | 'version'>;
// A receipt remembers a change by its id, and the answer it got.
export type ChangeReceipt = { changeId: string; answer: Answer };
export type StatusStore = { tickets: StatusTicket[]; receipts: ChangeReceipt[] };

// How one handler applies each kind of change to the staged store. Each returns the answer to send.
export type Rules = {
	setStatus(store: StatusStore, change: SetStatus): Answer;
	addComment(store: StatusStore, change: AddComment): Answer;
};

// Frozen: every handler hands out this one object, so none may change it for the others.
export const crashedAnswer: Answer = Object.freeze({ kind: 'crashed' });

export function copyStore(store: StatusStore): StatusStore {
	return {
		tickets: store.tickets.map((ticket) => ({ ...ticket, comments: [...ticket.comments] })),
		receipts: store.receipts.map((receipt) => ({ ...receipt, answer: { ...receipt.answer } }))
	};
}

// The ticket a change is about. Every schedule names only tickets it starts with.
export function ticketIn(store: StatusStore, id: number): StatusTicket {
	const ticket = store.tickets.find((t) => t.id === id);
	if (!ticket) throw new Error(`there is no ticket #${id}`);
	return ticket;
}

export function startStore(start: StartTicket[]): StatusStore {
	return { tickets: start.map((t) => ({ ...t, lastChange: null, comments: [] })), receipts: [] };
}

// Exercise 02's commit, given: the rules write to a staged copy, and one assignment makes it visible.
export class ChangeHandler {
	private store: StatusStore;

	constructor(
		private readonly rules: Rules,
		start: StartTicket[]
	) {
		this.store = startStore(start);
	}

	handle(change: Change, fault: Fault = 'none'): Answer {
		const staged = copyStore(this.store);
		const answer =
			change.kind === 'set-status'
				? this.rules.setStatus(staged, { ...change })
				: this.rules.addComment(staged, { ...change });
		if (fault === 'before-commit') return crashedAnswer;
		this.store = staged;
		// Committed. If the worker dies now, the sender hears nothing and sends the same change again.
		if (fault === 'after-commit') return crashedAnswer;
		return answer;
	}

	snapshot(): StatusStore {
		return copyStore(this.store);
	}
}
