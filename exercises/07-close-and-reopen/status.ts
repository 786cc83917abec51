import { todo } from '#harness/core/todo.ts';
import type { AddComment, Answer, SetStatus, StatusStore } from '#harness/status/model.ts';

// Sets the status with no receipt: setting it again changes nothing. A version keeps a late change out.
export function setStatus(store: StatusStore, change: SetStatus): Answer {
	return todo('setStatus', '07-close-and-reopen/status.ts');
}

// Adds a comment once per change: a receipt by the change's id, in the same commit as the comment.
export function addComment(store: StatusStore, change: AddComment): Answer {
	return todo('addComment', '07-close-and-reopen/status.ts');
}
