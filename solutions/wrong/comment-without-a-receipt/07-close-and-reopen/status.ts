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
	// The change that made this version, again: a retry after a lost acknowledgment. Answer as the first time.
	if (ticket.lastChange === change.changeId)
		return { kind: 'set', status: ticket.status, version: ticket.version };
	// Decided on a version that is gone: the ticket changed since. Applying it would undo that change.
	if (change.decidedOn < ticket.version) return { kind: 'stale', version: ticket.version };
	if (ticket.status !== change.status) {
		ticket.status = change.status;
		ticket.version += 1;
		ticket.lastChange = change.changeId;
	}
	return { kind: 'set', status: ticket.status, version: ticket.version };
}

// Wrong: adds a comment as if, like the status, it needed no receipt: one delivered twice is added twice.
export function addComment(store: StatusStore, change: AddComment): Answer {
	const ticket = ticketIn(store, change.ticketId);
	ticket.comments.push(change.text);
	return { kind: 'commented', comment: ticket.comments.length };
}
