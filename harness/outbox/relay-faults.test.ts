import { describe, expect, it } from 'vitest';
import type { Connection } from '../database/database.ts';
import type { Mail } from './mail-provider.ts';
import { judgeRelayRun, playRelayRun, type CallFault } from './relay-faults.ts';

// Each row's send in a transaction of its own, and nothing that ends it when the send throws.
async function relayInTransactions(db: Connection, mail: Mail): Promise<void> {
	for (const row of await db.pendingOutbox()) {
		await db.begin();
		await mail.send({ key: row.key, to: row.to, ticketId: row.ticketId, subject: row.subject });
		await db.markSent(row.id);
		await db.commit();
	}
}

describe('a relay run', () => {
	it('a relay that comes back inside its transaction is told so, whatever else it did', async () => {
		const plan: CallFault[] = ['accepted', 'bug', 'accepted'];
		const ran = await playRelayRun(relayInTransactions, plan);
		expect(ran.ended).toBe('throws the bug, with its transaction still open');
		const told = judgeRelayRun(plan, ran)!;
		expect(told).toContain('the relay throws the bug, with its transaction still open.');
		expect(told).toContain(
			'What this usually means: your relay came back with its transaction still open. Usually a return or a throw before commit or rollback'
		);
	});

	it('one whose every transaction ends is judged on what it sent and marked', async () => {
		const plan: CallFault[] = ['accepted', 'accepted', 'accepted'];
		expect(judgeRelayRun(plan, await playRelayRun(relayInTransactions, plan))).toBeNull();
	});
});
