import { describe, expect, it } from 'vitest';
import { DatabaseError, InMemoryDatabase, TransactionAborted, UniqueViolation } from './database.ts';
import type { Webhook } from '../core/model.ts';

const evt42: Webhook = { tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' };
const ticket = { tenant: 'acme', subject: 'Cannot sign in' };
const email = {
	key: 'acme/ticket-1/confirmation',
	tenant: 'acme',
	ticketId: 1,
	to: 'ada@acme.test',
	subject: 'We got it'
};

// These use one connection at a time, with no scheduler; scheduler.test.ts covers the waiting.
describe('InMemoryDatabase', () => {
	it('outside a transaction, each write commits on its own and ids come from a sequence', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		expect(await a.saveTicket(ticket)).toBe(1);
		expect(await a.saveTicket(ticket)).toBe(2);
		expect(db.committed().tickets.map((t) => t.id)).toEqual([1, 2]);
		expect(await db.connect('B').findTicket(2)).toEqual({ id: 2, ...ticket });
	});

	it('inside a transaction, writes are private until commit', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		const b = db.connect('B');
		await a.begin();
		const id = await a.saveTicket(ticket);
		await a.saveReceipt({ ...evt42, ticketId: id });
		expect(await a.findReceipt(evt42), 'a transaction sees its own writes').toMatchObject({ ticketId: 1 });
		expect(await b.findReceipt(evt42), 'another connection does not').toBeNull();
		expect(db.committed().tickets).toEqual([]);
		await a.commit();
		expect(await b.findReceipt(evt42)).toEqual({ ...evt42, ticketId: 1 });
		expect(db.committed().tickets).toEqual([{ id: 1, ...ticket }]);
	});

	it('a rollback discards the writes but not the ids they took', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		await a.begin();
		await a.saveTicket(ticket);
		await a.rollback();
		expect(db.committed().tickets).toEqual([]);
		expect(await a.saveTicket(ticket), 'ticket 1 was burned by the rollback').toBe(2);
		expect(db.trace.map((line) => line.text)).toContain('A rolls back: ticket #1 is gone.');
	});

	it('the unique key and the lookup compare the three fields: separators inside them never collide', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		const pairs: [Webhook, Webhook][] = [
			[
				{ ...evt42, tenant: 'a/b', source: 'c' },
				{ ...evt42, tenant: 'a', source: 'b/c' }
			],
			[
				{ ...evt42, source: 'help', eventId: 'desk/evt-42' },
				{ ...evt42, source: 'help/desk', eventId: 'evt-42' }
			],
			[
				{ ...evt42, tenant: '', source: 'x', eventId: 'y' },
				{ ...evt42, tenant: 'x', source: '', eventId: 'y' }
			],
			[
				{ ...evt42, eventId: 'EVT-42' },
				{ ...evt42, eventId: 'evt-42' }
			]
		];
		let ticketId = 0;
		for (const [first, second] of pairs) {
			await a.saveReceipt({ ...first, ticketId: ++ticketId });
			expect(await a.findReceipt(second), `${JSON.stringify(second)} has no receipt yet`).toBeNull();
			await a.saveReceipt({ ...second, ticketId: ++ticketId });
			expect(await a.findReceipt(second)).toMatchObject({ ticketId });
			expect(await a.findReceipt(first)).toMatchObject({ ticketId: ticketId - 1 });
		}
		expect(db.committed().receipts).toHaveLength(pairs.length * 2);
	});

	it('a receipt whose key is committed fails with a unique violation', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		await a.saveReceipt({ ...evt42, ticketId: 1 });
		const second = db.connect('B').saveReceipt({ ...evt42, ticketId: 2 });
		await expect(second).rejects.toBeInstanceOf(UniqueViolation);
		await expect(second).rejects.toMatchObject({ code: 'unique-violation' });
		expect(db.committed().receipts).toEqual([{ ...evt42, ticketId: 1 }]);
	});

	it('the key is tenant, source and event id: the same event id elsewhere is another receipt', async () => {
		const a = new InMemoryDatabase().connect('A');
		await a.saveReceipt({ ...evt42, ticketId: 1 });
		await a.saveReceipt({ ...evt42, tenant: 'globex', ticketId: 2 });
		await a.saveReceipt({ ...evt42, source: 'billing', ticketId: 3 });
		expect(await a.findReceipt({ ...evt42, source: 'billing' })).toMatchObject({ ticketId: 3 });
	});

	it('after an error a transaction is aborted: only rollback works', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		await a.begin();
		await a.saveReceipt({ ...evt42, ticketId: 1 });
		await expect(a.saveReceipt({ ...evt42, ticketId: 2 })).rejects.toBeInstanceOf(UniqueViolation);
		await expect(a.findReceipt(evt42)).rejects.toBeInstanceOf(TransactionAborted);
		await a.rollback();
		expect(await a.findReceipt(evt42), 'usable again after rollback').toBeNull();
	});

	it('committing an aborted transaction rolls it back and says so', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		await a.begin();
		await a.saveTicket(ticket);
		await a.saveReceipt({ ...evt42, ticketId: 1 });
		await expect(a.saveReceipt({ ...evt42, ticketId: 1 })).rejects.toBeInstanceOf(UniqueViolation);
		await expect(a.commit()).rejects.toBeInstanceOf(TransactionAborted);
		expect(db.committed()).toEqual({ tickets: [], receipts: [], outbox: [] });
		expect(a.inTransaction).toBe(false);
	});

	it('without a scheduler, a write that would wait says so instead of hanging', async () => {
		const db = new InMemoryDatabase();
		const a = db.connect('A');
		await a.begin();
		await a.saveReceipt({ ...evt42, ticketId: 1 });
		await expect(db.connect('B').saveReceipt({ ...evt42, ticketId: 2 })).rejects.toThrow(
			/would wait for A's transaction/
		);
	});

	it('names misuse: begin twice, commit or rollback with no transaction', async () => {
		const a = new InMemoryDatabase().connect('A');
		await expect(a.commit()).rejects.toThrow('A: commit: no transaction is open');
		await expect(a.rollback()).rejects.toThrow('A: rollback: no transaction is open');
		await a.begin();
		await expect(a.begin()).rejects.toThrow(DatabaseError);
	});

	it('committed() hands out a copy', async () => {
		const db = new InMemoryDatabase();
		await db.connect('A').saveTicket(ticket);
		const copy = db.committed();
		copy.tickets[0]!.subject = 'Changed through a copy';
		copy.tickets.push({ id: 9, ...ticket });
		expect(db.committed().tickets).toEqual([{ id: 1, ...ticket }]);
	});

	describe('the outbox', () => {
		it('rows wait as pending until marked sent, and marking twice changes nothing', async () => {
			const db = new InMemoryDatabase();
			const a = db.connect('A');
			expect(await a.saveOutbox(email)).toBe(1);
			expect(await a.pendingOutbox()).toEqual([{ id: 1, ...email, state: 'pending' }]);
			expect(await a.markSent(1)).toBe(true);
			expect(await a.markSent(1)).toBe(false);
			expect(await a.markSent(7), 'no such row').toBe(false);
			expect(await a.pendingOutbox()).toEqual([]);
			expect(db.committed().outbox).toEqual([{ id: 1, ...email, state: 'sent' }]);
		});

		it('a row saved in a rolled-back transaction is never pending', async () => {
			const db = new InMemoryDatabase();
			const a = db.connect('A');
			await a.begin();
			await a.saveOutbox(email);
			expect(await a.pendingOutbox()).toHaveLength(1);
			await a.rollback();
			expect(await a.pendingOutbox()).toEqual([]);
		});

		it('a mark-sent inside a transaction is private until commit', async () => {
			const db = new InMemoryDatabase();
			const a = db.connect('A');
			await a.saveOutbox(email);
			await a.begin();
			await a.markSent(1);
			expect(await db.connect('B').pendingOutbox()).toHaveLength(1);
			await a.commit();
			expect(await db.connect('B').pendingOutbox()).toHaveLength(0);
		});

		it('the email key is unique', async () => {
			const a = new InMemoryDatabase().connect('A');
			await a.saveOutbox(email);
			await expect(a.saveOutbox({ ...email, ticketId: 2 })).rejects.toBeInstanceOf(UniqueViolation);
		});
	});
});
