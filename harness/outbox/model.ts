// The outbox exercise's model: the email a ticket owes its tenant. Its outbox row lives in database.ts.

// The kinds of email a ticket can send. Part of every email's key, so two kinds for one ticket never merge.
export type EmailKind = 'ticket-confirmation';
export const emailKinds: readonly EmailKind[] = ['ticket-confirmation'];

// An email as the mail provider takes it: its own idempotency key, who gets it, and about which ticket.
export type Email = { key: string; to: string; ticketId: number; subject: string };

export function copyEmail(email: Email): Email {
	return { key: email.key, to: email.to, ticketId: email.ticketId, subject: email.subject };
}
