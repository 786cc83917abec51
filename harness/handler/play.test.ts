// The handler player's stories for a handler whose identity is one joined string: the wrong solution
// joined-identity, built here from the solution with its sameEvent joined, once for each separator the
// look-alike schedules try. Each must be told it took a new event for one it had seen, never that it kept
// something from a crash: no delivery of these schedules crashes.
import { describe, expect, it } from 'vitest';
import { ReceiptHandler, replay } from '../../solutions/02-same-event/handler.ts';
import {
	copyDatabase,
	crashed,
	type Database,
	type Fault,
	type Handler,
	type Webhook
} from '../core/model.ts';
import { judgeHandler, playHandler, snapshotProblem } from './play.ts';
import { handlerSchedules } from './schedules.ts';

// The solution's ReceiptHandler with the mistake: tenant, source and event id joined into one key.
function joinedIdentity(separator: string): Handler {
	const key = (event: Webhook) => [event.tenant, event.source, event.eventId].join(separator);
	let db: Database = { tickets: [], receipts: [] };
	return {
		handle(event: Webhook, fault: Fault = 'none') {
			const seen = db.receipts.find((receipt) => key(receipt) === key(event));
			const staged = copyDatabase(db);
			let outcome = seen ? replay(seen, event) : null;
			if (!outcome) {
				const ticketId = staged.tickets.length + 1;
				staged.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
				staged.receipts.push({ ...event, ticketId });
				outcome = { kind: 'created', ticketId };
			}
			if (fault === 'before-commit') return crashed;
			db = staged;
			if (fault === 'after-commit') return crashed;
			return outcome;
		},
		snapshot: () => copyDatabase(db)
	};
}

const newEvent =
	'What this usually means: this is a new event, taken for one your handler had seen. The identity is tenant, source and event id, all three, compared one by one.';

describe('a handler whose identity is one joined string, on the look-alike schedules', () => {
	const cases = [
		{
			separator: ':',
			schedule: 'separators-inside-fields',
			said: 'delivery 2 (a/b:c/evt-1): expected created #2, your handler replayed #1.'
		},
		{
			separator: '-',
			schedule: 'separators-of-every-kind',
			said: 'delivery 2 (a/b-c/evt-1): expected created #2, your handler replayed #1.'
		},
		{
			separator: '|',
			schedule: 'separators-of-every-kind',
			said: 'delivery 4 (a/b|c/evt-1): expected created #4, your handler replayed #3.'
		},
		{
			separator: '/',
			schedule: 'separators-of-every-kind',
			said: 'delivery 6 ("a"/"b/c"/"evt-1"): expected created #6, your handler replayed #5.'
		},
		{
			separator: '',
			schedule: 'separators-of-every-kind',
			said: 'delivery 8 (a/bc/evt-1): expected created #8, your handler replayed #7.'
		}
	];
	for (const { separator, schedule: name, said } of cases) {
		it(`joined with "${separator}", on ${name}: a new event taken for a seen one`, () => {
			const schedule = handlerSchedules().find((s) => s.name === name)!;
			const played = playHandler(schedule, joinedIdentity(separator));
			const story = judgeHandler(schedule, 'receipt-in-commit', played);
			expect(story).toContain(said);
			expect(story).toContain(newEvent);
			expect(story).not.toContain('died before its commit');
			expect(story).not.toContain(' again');
		});
	}
	it('prints the two receipts the joined key merged apart', () => {
		const schedule = handlerSchedules().find((s) => s.name === 'separators-of-every-kind')!;
		const story = judgeHandler(schedule, 'receipt-in-commit', playHandler(schedule, joinedIdentity('/')));
		expect(story).toContain('"a/b"/"c"/"evt-1" "Printer on fire" → #5');
		expect(story).toContain('"a"/"b/c"/"evt-1" "Printer on fire" → #6');
	});
});

describe('the usual cause of a replay where a ticket was expected', () => {
	it('names a crash before the commit only when the same event really crashed there', () => {
		const schedule = handlerSchedules().find((s) => s.name === 'crash-before-commit')!;
		// The solution, with its writes committed even when the worker dies before its commit.
		const solution = new ReceiptHandler();
		const leaky: Handler = {
			handle: (event, fault) => solution.handle(event, fault === 'before-commit' ? 'after-commit' : fault),
			snapshot: () => solution.snapshot()
		};
		const story = judgeHandler(schedule, 'receipt-in-commit', playHandler(schedule, leaky));
		expect(story).toContain(
			'your handler kept something from a delivery whose worker died before its commit.'
		);
		expect(story).not.toContain('this is a new event');
	});
});

describe('a diagnosis looks at the fault and at what was stored', () => {
	const find = (name: string) => handlerSchedules().find((s) => s.name === name)!;

	it('a ticket pushed before the before-commit check is told it kept something, not about numbering', () => {
		// 02 with the ticket written straight into the store, before the check for a crash before the commit.
		let db: Database = { tickets: [], receipts: [] };
		const early: Handler = {
			handle(event: Webhook, fault: Fault = 'none') {
				const seen = db.receipts.find((receipt) => receipt.eventId === event.eventId);
				if (seen) return replay(seen, event);
				const ticketId = db.tickets.length + 1;
				db.tickets.push({ id: ticketId, tenant: event.tenant, subject: event.subject });
				if (fault === 'before-commit') return crashed;
				db.receipts.push({ ...event, ticketId });
				return fault === 'after-commit' ? crashed : { kind: 'created', ticketId };
			},
			snapshot: () => copyDatabase(db)
		};
		const schedule = find('crash-before-commit');
		const story = judgeHandler(schedule, 'receipt-in-commit', playHandler(schedule, early));
		expect(story).toContain('delivery 2 (acme/helpdesk/evt-42 again, after a crash before the commit)');
		expect(story).toContain(
			'your handler kept something from a delivery whose worker died before its commit'
		);
		expect(story).not.toContain('Ticket ids count');
	});

	it('a replay after a delivery that committed is never blamed on a crash before the commit', () => {
		// A schedule edited to expect a new ticket where the lesson replays: the after-commit crash committed.
		const lost = find('lost-acknowledgment');
		const [first, second] = lost.deliveries;
		const edited = {
			...lost,
			deliveries: [first!, { ...second!, fault: 'before-commit' as const }, second!],
			expect: {
				...lost.expect,
				'receipt-in-commit': {
					outcomes: [crashed, crashed, { kind: 'created' as const, ticketId: 2 }],
					tickets: [],
					receipts: []
				}
			}
		};
		const story = judgeHandler(edited, 'receipt-in-commit', playHandler(edited, new ReceiptHandler()));
		expect(story).toContain('expected created #2, your handler replayed #1.');
		expect(story).not.toContain('died before its commit');
	});
});

describe('a snapshot that is the live store', () => {
	it('shows the store before and after as ticket lines, each short enough that no word is cut', () => {
		let db: Database = { tickets: [], receipts: [] };
		const live: Handler = {
			handle(event: Webhook) {
				db.tickets.push({ id: db.tickets.length + 1, tenant: event.tenant, subject: event.subject });
				return { kind: 'created', ticketId: db.tickets.length };
			},
			snapshot: () => db
		};
		const story = snapshotProblem(live)!;
		expect(story).toContain("Changing what snapshot() returned changed the handler's store.");
		expect(story).toContain('#1 acme: Cannot sign in');
		expect(story).toContain('#99 mallory: Pushed into a snapshot');
		expect(story).toContain('not the live arrays');
		expect(story.split('\n').filter((line) => line.length > 100)).toEqual([]);
		db = { tickets: [], receipts: [] };
		expect(snapshotProblem(new ReceiptHandler())).toBeNull();
	});
});
