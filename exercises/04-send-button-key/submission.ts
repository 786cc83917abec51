import type { Answer, FormState, KeyStore, Submissions } from '#harness/client/model.ts';
import { todo } from '#harness/core/todo.ts';

// One key per request the user means to send. An attempt whose outcome is unknown keeps its key and its
// body, even across a reload of the tab, so trying again can't create a second ticket.
export function submissions<T>(
	storage: KeyStore,
	form: string,
	newKey: () => string = () => crypto.randomUUID()
): Submissions<T> {
	return todo('submissions', '04-send-button-key/submission.ts');
}

// What an answer means for the form: created, refused, or unsure; and whether the submission is over.
export function afterAnswer<T>(submission: Submissions<T>, answer: Answer): FormState {
	return todo('afterAnswer', '04-send-button-key/submission.ts');
}
