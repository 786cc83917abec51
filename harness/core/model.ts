// The lesson's model: a support-ticket webhook, the ticket it makes, and the receipt that remembers it.

export type Webhook = { tenant: string; source: string; eventId: string; subject: string };
export type Ticket = { id: number; tenant: string; subject: string };
// A receipt keeps the whole event (its identity and its subject) and the ticket it made.
export type Receipt = Webhook & { ticketId: number };
export type Database = { tickets: Ticket[]; receipts: Receipt[] };

// Where the worker dies: not at all, before its commit, or after the commit but before it answers.
export type Fault = 'none' | 'before-commit' | 'after-commit';
export const faults: readonly Fault[] = ['none', 'before-commit', 'after-commit'];

export type OutcomeKind = 'created' | 'crashed' | 'replayed' | 'conflict';
export type Outcome = { kind: OutcomeKind; ticketId: number | null };

// Frozen: every handler hands out this one object, so none may change it for the others.
export const crashed: Outcome = Object.freeze({ kind: 'crashed', ticketId: null });

// A handler as the schedules play it: one delivery at a time, and a look at what it stored.
export interface Handler {
	handle(event: Webhook, fault?: Fault): Outcome;
	snapshot(): Database;
}

// A deep copy, so whoever holds it can't change the store through it.
export function copyDatabase(db: Database): Database {
	return {
		tickets: db.tickets.map((ticket) => ({ ...ticket })),
		receipts: db.receipts.map((receipt) => ({ ...receipt }))
	};
}
