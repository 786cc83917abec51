import { describe, expect, it } from 'vitest';
import { brokenCrashPoint, crashPlans, exploreCrashPoints } from './crash-points.ts';
import { propertyTime } from './property.ts';
import type { Sender } from './play.ts';
import type { Mail } from './mail-provider.ts';
import type { Connection } from '../database/database.ts';
import { handleWithOutbox, relay } from '../../solutions/05-email-outbox/outbox.ts';
import { sendInside } from '../../exercises/05-email-outbox/send-inside.ts';

const outbox = (): Sender => ({
	name: 'outbox-relay',
	handle: (db, event) => handleWithOutbox(db, event),
	relay
});

// The relay with its two steps the other way round: the row is marked sent, then the email goes out.
async function marksFirst(conn: Connection, mail: Mail): Promise<void> {
	const marked: Parameters<Mail['send']>[0][] = [];
	const spy: Mail = { send: async (email) => (marked.push(email), { messageId: 'held', duplicate: false }) };
	await relay(conn, spy);
	for (const email of marked)
		await conn.outside('hand the marked emails to the provider', () => mail.send(email));
}

describe("05's crash points, one at a time", () => {
	it('the loop plays the named points; verify plays every operation too', () => {
		expect(crashPlans('named').length).toBeLessThan(crashPlans('every').length);
	});
	it('the solution keeps the promise at every crash point', propertyTime, async () => {
		const { cases, failures } = await exploreCrashPoints(outbox, 'every');
		expect(cases).toBeGreaterThan(60);
		expect(failures.map((f) => f.problem)).toEqual([]);
	});
	it(
		'sending inside the handler (the given anti-pattern) breaks at a crash point after its send',
		propertyTime,
		async () => {
			const problem = await brokenCrashPoint(() => ({
				name: 'send-inside',
				handle: sendInside,
				relay: null
			}));
			expect(problem).toMatch(
				/^\d+ of \d+ crash points break "every committed ticket has exactly one email"/
			);
			expect(problem).toMatch(/which does not exist|delivered emails, not 1/);
			expect(problem).toContain('The rounds:');
		}
	);
	it(
		'a relay that marks before it sends breaks between marking and sending, and says where',
		propertyTime,
		async () => {
			const problem = await brokenCrashPoint(() => ({ ...outbox(), relay: marksFirst }));
			expect(problem).toContain('delivered emails, not 1');
			expect(problem).toMatch(/R1 relays, dies after /);
		}
	);
});
