import {
	ticketIn,
	type AddComment,
	type Answer,
	type SetStatus,
	type StatusStore
} from '#harness/status/model.ts';

// Sets the status with no receipt: setting it again changes nothing. A version keeps a late change out.
export function setStatus(store: StatusStore, change: SetStatus): Answer {
	const ticket = ticketIn(store, change.ticketId);
	// Decided on a version that is gone: the ticket changed since. Applying it would undo that change.
	if (change.decidedOn < ticket.version) return { kind: 'stale', version: ticket.version };
	// The change that made this version, again. Wrong: checked after the version, so a retry after a lost
	// acknowledgment is already refused as stale.
	if (ticket.lastChange === change.changeId)
		return { kind: 'set', status: ticket.status, version: ticket.version };
	if (ticket.status !== change.status) {
		ticket.status = change.status;
		ticket.version += 1;
		ticket.lastChange = change.changeId;
	}
	return { kind: 'set', status: ticket.status, version: ticket.version };
}

// Adds a comment once per change: a receipt by the change's id, in the same commit as the comment.
export function addComment(store: StatusStore, change: AddComment): Answer {
	const seen = store.receipts.find((receipt) => receipt.changeId === change.changeId);
	if (seen) return seen.answer;
	const ticket = ticketIn(store, change.ticketId);
	ticket.comments.push(change.text);
	const answer: Answer = { kind: 'commented', comment: ticket.comments.length };
	store.receipts.push({ changeId: change.changeId, answer });
	return answer;
}
