// The anti-pattern, on purpose: a fresh key for every press of Send, and nothing kept across a reload. After a
// lost answer, Try again looks like a new request to the endpoint, and makes a second ticket.
import { useState, type FormEvent } from 'react';
import type { FormState } from '#harness/client/model.ts';
import { post } from './NewTicketForm.tsx';
import { statusWords } from './words.ts';

export function AntiPatternForm() {
	const [subject, setSubject] = useState('');
	const [shown, setShown] = useState<FormState>({ kind: 'editing' });

	async function send(event: FormEvent) {
		event.preventDefault();
		setShown({ kind: 'sending' });
		const answer = await post(crypto.randomUUID(), { subject }); // The mistake: a key per attempt.
		if (answer.kind === 'reply' && answer.status >= 200 && answer.status < 300) {
			setShown({ kind: 'created', ticketId: answer.ticketId });
			setSubject('');
		} else setShown({ kind: 'unsure', status: answer.kind === 'reply' ? answer.status : null });
	}

	return (
		<form onSubmit={send} aria-label="New ticket">
			<label>
				Subject
				<input name="subject" value={subject} onChange={(event) => setSubject(event.target.value)} />
			</label>
			<button type="submit">{shown.kind === 'unsure' ? 'Try again' : 'Send'}</button>
			<p role="status" data-state={shown.kind}>
				{statusWords(shown)}
			</p>
		</form>
	);
}
