// The support form of the lesson's section 05, built on your submissions() and afterAnswer() with the tab's
// sessionStorage: one key per request you mean to send, kept (with its body) until a definite answer comes back.
import { useState, type FormEvent } from 'react';
import { formAuthorization, isLocked, type Answer, type TicketBody } from '#harness/client/model.ts';
import type { KeyStore } from './pick.ts';
import { statusWords, type Shown } from './words.ts';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

// What came back for one request: a status (and the ticket, for a 2xx), or nothing at all.
export async function post(key: string, body: TicketBody): Promise<Answer> {
	try {
		const response = await fetch('/api/tickets', {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Authorization: formAuthorization,
				'Idempotency-Key': key
			},
			body: JSON.stringify(body)
		});
		const answer = response.ok
			? ((await response.json().catch(() => null)) as { id?: unknown } | null)
			: null;
		return {
			kind: 'reply',
			status: response.status,
			ticketId: typeof answer?.id === 'number' ? answer.id : null
		};
	} catch {
		return { kind: 'no-answer' }; // The connection dropped: the ticket may or may not exist.
	}
}

export function NewTicketForm({ code, form }: { code: KeyStore; form: string }) {
	// Made once per page: a reload makes a new one, which finds what this tab's sessionStorage kept.
	const [opened] = useState(() => {
		try {
			const store = code.submissions<TicketBody>(window.sessionStorage, form);
			return { store, pending: store.pending(), threw: null };
		} catch (error) {
			return { store: null, pending: null, threw: message(error) };
		}
	});
	const { store } = opened;
	// An unfinished submission from before the reload: its body back in the fields, and no way to know how it ended.
	const [subject, setSubject] = useState(opened.pending?.body.subject ?? '');
	const [shown, setShown] = useState<Shown>(
		opened.threw !== null
			? { kind: 'threw', message: opened.threw }
			: opened.pending
				? { kind: 'unsure', status: null }
				: { kind: 'editing' }
	);

	async function send(event: FormEvent) {
		event.preventDefault();
		if (!store) return;
		try {
			const { key, body } = store.begin({ subject });
			setSubject(body.subject); // What goes out is the submission's body, which may be the one from before.
			setShown({ kind: 'sending' });
			const answer = await post(key, body);
			const next = code.afterAnswer(store, answer);
			setShown(next);
			if (next.kind === 'created') setSubject('');
		} catch (error) {
			setShown({ kind: 'threw', message: message(error) });
		}
	}

	const unsure = shown.kind === 'unsure';
	return (
		<form onSubmit={send} aria-label="New ticket">
			<label>
				Subject
				<input
					name="subject"
					value={subject}
					disabled={isLocked(shown)}
					onChange={(event) => setSubject(event.target.value)}
				/>
			</label>
			{/* Send stays enabled while sending: a second press is a retry, and the key makes it harmless. */}
			<button type="submit" disabled={!store}>
				{unsure ? 'Try again' : 'Send'}
			</button>
			<p role="status" data-state={shown.kind}>
				{statusWords(shown)}
			</p>
		</form>
	);
}
