// Given, not yours to change: two ways of applying changes that never check a version. Its tests
// (without-versions.test.ts) pass: they pin what each one does, the late close included.
import {
	ticketIn,
	type AddComment,
	type Answer,
	type Rules,
	type SetStatus,
	type StatusStore
} from '#harness/status/model.ts';

// Setting a status the ticket already has changes nothing: the same answer, however often it arrives.
function setAsItArrives(store: StatusStore, change: SetStatus): Answer {
	const ticket = ticketIn(store, change.ticketId);
	if (ticket.status !== change.status) {
		ticket.status = change.status;
		ticket.version += 1;
	}
	return { kind: 'set', status: ticket.status, version: ticket.version };
}

// Every delivery adds the comment again: nothing remembers that it was added.
function commentAsItArrives(store: StatusStore, change: AddComment): Answer {
	const ticket = ticketIn(store, change.ticketId);
	ticket.comments.push(change.text);
	return { kind: 'commented', comment: ticket.comments.length };
}

// No receipt, no version: right for a status delivered twice, wrong for a comment, and blind to order.
export const asItArrives: Rules = { setStatus: setAsItArrives, addComment: commentAsItArrives };

// A receipt for every change, by its id: a repeat gets the first answer and changes nothing.
function withReceipt<C extends SetStatus | AddComment>(apply: (store: StatusStore, change: C) => Answer) {
	return (store: StatusStore, change: C): Answer => {
		const seen = store.receipts.find((receipt) => receipt.changeId === change.changeId);
		if (seen) return seen.answer;
		const answer = apply(store, change);
		store.receipts.push({ changeId: change.changeId, answer });
		return answer;
	};
}

// Receipts recognise a change they have seen. A late change they have not seen still goes in.
export const receiptsOnly: Rules = {
	setStatus: withReceipt(setAsItArrives),
	addComment: withReceipt(commentAsItArrives)
};
