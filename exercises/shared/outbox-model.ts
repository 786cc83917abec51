// The outbox exercise's model: the email a ticket owes its tenant, and the outbox row that remembers it.

// The kinds of email a ticket can send. Part of every email's key, so two kinds for one ticket never merge.
export type EmailKind = 'ticket-confirmation';
export const emailKinds: readonly EmailKind[] = ['ticket-confirmation'];

// An email as the mail provider takes it: its own idempotency key, who gets it, and about which ticket.
export type Email = { key: string; to: string; ticketId: number; kind: EmailKind; subject: string };

// A row of the outbox table: an email to send, saved in the same commit as its ticket.
export type OutboxState = 'pending' | 'sent';
export type OutboxRow = Email & { state: OutboxState };

export function copyEmail(email: Email): Email {
	return { key: email.key, to: email.to, ticketId: email.ticketId, kind: email.kind, subject: email.subject };
}
