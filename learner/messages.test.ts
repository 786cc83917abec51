// The failure messages a learner reads, checked as a learner would read them.
import { describe, expect, it } from 'vitest';
import { handlerSchedules } from '#harness/handler/schedules.ts';
import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Handler,
	type Outcome,
	type Webhook
} from '#harness/core/model.ts';
import { judgeHandler, playHandler } from '#harness/handler/play.ts';
import { messageWidth, sideBySide } from '#harness/core/report.ts';
import { NotWrittenYet, todo } from '#harness/core/todo.ts';

const schedule = (name: string) => handlerSchedules().find((s) => s.name === name)!;

// The receipt handler with its commit in the wrong place: a crash before the commit still saves.
class CommitsTooEarly {
	private db: Database = { tickets: [], receipts: [] };
	handle(event: Webhook, fault: Fault = 'none'): Outcome {
		const seen = this.db.receipts.find(
			(r) => r.tenant === event.tenant && r.source === event.source && r.eventId === event.eventId
		);
		if (seen) return fault === 'none' ? { kind: 'replayed', ticketId: seen.ticketId } : crashed;
		const ticketId = this.db.tickets.length + 1;
		this.db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
		this.db.receipts.push({ ...event, ticketId });
		return fault === 'none' ? { kind: 'created', ticketId } : crashed;
	}
	snapshot(): Database {
		return copyDatabase(this.db);
	}
}

describe('messages that teach', () => {
	it("a stub names the function, the learner's file, its README and the hint command", () => {
		let error: unknown;
		try {
			todo('ReceiptHandler.handle', '02-same-event/handler.ts');
		} catch (thrown) {
			error = thrown;
		}
		expect(error).toBeInstanceOf(NotWrittenYet);
		const message = (error as Error).message;
		expect(message).toContain('ReceiptHandler.handle is not written yet.');
		expect(message).toContain('exercises/02-same-event/handler.ts');
		expect(message).toContain('exercises/02-same-event/README.md');
		expect(message).toContain('npm run hint -- 02');
		expect((error as Error).stack, 'the stack starts at the stub, not inside todo()').not.toMatch(/at todo /);
		const frames = (error as Error).stack!.split('\n').filter((line) => /^\s+at /.test(line));
		expect(frames[0], 'the first frame is the code that called todo()').toContain('messages.test.ts');
		expect(frames.join('\n'), "the test runner's own frames are left out").not.toContain('node_modules');
	});

	it('a wrong handler hears which delivery, what was expected, what it did, why, and the state side by side', () => {
		const crash = schedule('crash-before-commit');
		const message = judgeHandler(crash, 'receipt-in-commit', playHandler(crash, new CommitsTooEarly()));
		expect(message).toContain('Schedule "crash-before-commit" (The crash came first)');
		expect(message).toContain('delivery 2 (acme/helpdesk/evt-42 again, after a crash before the commit)');
		expect(message).toContain('expected created #1, your handler replayed #1');
		expect(message).toContain('A crash before the commit must leave nothing behind');
		// Its receipt is too wide for two columns under the loop's indent: your code is under the expected line.
		expect(message).toMatch(/ {2}answers +1: crashed \(no answer\)\n/);
		expect(message).toMatch(/≠ +2: created #1\n {2}your code +2: replayed #1\n/);
		expect(message).toMatch(/receipts +acme\/helpdesk\/evt-42 "Cannot sign in" → #1$/);
	});

	it("names what the learner wrote everywhere in the message: 06's webhooks route, not a handler", () => {
		const crash = schedule('crash-before-commit');
		const played = playHandler(crash, new CommitsTooEarly());
		const message = judgeHandler(crash, 'receipt-in-commit', played, 'your webhooks route')!;
		expect(message).toContain('expected created #1, your webhooks route replayed #1');
		expect(message).toContain('your webhooks route kept something from a delivery');
		expect(message).not.toContain('your handler');
	});

	it("01's messages use only words met by then: no receipts, no second handler", () => {
		// Wrong at every delivery, so every schedule has something to say.
		const alwaysWrong: Handler = {
			handle: () => ({ kind: 'replayed', ticketId: 9 }),
			snapshot: () => ({ tickets: [{ id: 9, tenant: 'acme', subject: 'x' }], receipts: [] })
		};
		for (const played of handlerSchedules()) {
			const message = judgeHandler(
				played,
				'create-every-time',
				playHandler(played, alwaysWrong, 'create-every-time')
			);
			expect(message, played.name).toBeTruthy();
			expect(message, played.name).not.toMatch(/receipt|both handlers/i);
		}
	});

	it('a table too wide for 100 columns puts your code under the expected line, where they differ', () => {
		const long = (what: string) => `#1 to acme: Cannot sign in [ticket-confirmation/acme/1] ${what}`;
		const table = sideBySide([
			{ label: 'tickets', expected: ['#1 acme: Cannot sign in'], actual: ['#1 acme: Cannot sign in'] },
			{ label: 'outbox', expected: [long('pending'.repeat(4))], actual: [long('sent'.repeat(4))] }
		]);
		expect(table.split('\n').every((line) => line.length <= messageWidth)).toBe(true);
		expect(table).toMatch(/≠ outbox +#1 to acme: .*pending\n +your code +#1 to acme: .*sent/);
		expect(table.match(/Cannot sign in$/gm)).toHaveLength(1);
	});

	it('under labels shorter than "your code", your code keeps two spaces before its line, as the labels do', () => {
		const wide = (what: string) => `#1 to acme: ${what.repeat(60)}`;
		const table = sideBySide([{ label: 'box', expected: [wide('a')], actual: [wide('b')] }]);
		expect(table).toContain('your code on the line under it');
		expect(table).toMatch(/^≠ box {8}#1 to acme: a+\n {2}your code {2}#1 to acme: b+$/m);
	});

	it('two lines that differ only in spaces or characters that print as none show where they differ', () => {
		const row = (label: string, expected: string, actual: string) => ({
			label,
			expected: [expected],
			actual: [actual]
		});
		const table = sideBySide([
			row('tickets', '#1 acme: Cannot sign in', '#1 acme: Cannot sign in '),
			row('spaces', 'Cannot sign in', 'Cannot  sign\tin'),
			row('hidden', 'Cannot sign in', 'Can\u200bnot sign\u00a0in'),
			row('same', 'Cannot sign in', 'Cannot sign in')
		]);
		expect(table.split('\n')).toEqual([
			'            expected                  your code',
			'≠ tickets   #1 acme: Cannot sign in   #1 acme: Cannot sign in·',
			'≠ spaces    Cannot sign in            Cannot··sign⟨U+0009⟩in',
			'≠ hidden    Cannot sign in            Can⟨U+200B⟩not sign⟨U+00A0⟩in',
			'  same      Cannot sign in            Cannot sign in',
			'  (· marks a space you would not see, ⟨U+…⟩ a character that prints as nothing or as a space)'
		]);
		// Lines that differ in what they say are left as they are, spaces and all.
		const plain = sideBySide([row('tickets', '#1 acme: Cannot sign in', '#2 acme: Cannot sign in ')]);
		expect(plain).not.toContain('·');
		expect(plain).not.toContain('(·');
	});

	it('the same handler passes the schedules where its mistake does not show', () => {
		const lost = schedule('lost-acknowledgment');
		expect(judgeHandler(lost, 'receipt-in-commit', playHandler(lost, new CommitsTooEarly()))).toBeNull();
	});
});
