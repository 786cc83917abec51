// The outbox property: random deliveries, relay runs and provider outages, workers overlapping at random and
// crashing anywhere; then one clean relay run. Every committed ticket must have exactly one delivered email,
// and no email may be about a ticket that does not exist.
import fc from 'fast-check';
import { ProviderDown } from './mail-provider.ts';
import type { Webhook } from '../core/model.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { OutboxWorld, type Sender } from './play.ts';
import { fromNumbers, runWorkers, type CrashPoint, type WorkerPlan } from '../scheduler/scheduler.ts';
import type { SharedDatabase } from '../database/database.ts';
import { tellTrace } from '../scheduler/trace.ts';
import { saidIdentity } from '../core/identity.ts';
import { answered, saidTicket } from '../core/words.ts';
import { saidEmail } from './words.ts';

// A few identities, so repeats, races and conflicts are common: evt-42 twice over, once with other words.
export const propertyEvents: readonly Webhook[] = [
	{ tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' },
	{ tenant: 'acme', source: 'helpdesk', eventId: 'evt-43', subject: 'Cannot export report' },
	{ tenant: 'globex', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot sign in' },
	{ tenant: 'acme', source: 'helpdesk', eventId: 'evt-42', subject: 'Cannot export report' }
];

export type WorkerSpec =
	{ does: 'deliver'; event: number; crash: CrashPoint | null } | { does: 'relay'; crash: CrashPoint | null };
export type Round = { providerDown: boolean; workers: WorkerSpec[]; picks: number[] };

const anywhere = (operations: number) =>
	fc.integer({ min: 0, max: operations }).map((count): CrashPoint => ({ when: 'after-operations', count }));
const nth = (operation: string) =>
	fc.integer({ min: 1, max: 3 }).map((n): CrashPoint => ({ when: 'after', operation, nth: n }));

const deliveryCrash: fc.Arbitrary<CrashPoint | null> = fc.oneof(
	{ arbitrary: fc.constant(null), weight: 3 },
	fc.constant<CrashPoint>({ when: 'before-commit' }),
	fc.constant<CrashPoint>({ when: 'before-answering' }),
	anywhere(6)
);
const relayCrash: fc.Arbitrary<CrashPoint | null> = fc.oneof(
	{ arbitrary: fc.constant(null), weight: 3 },
	fc.constant<CrashPoint>({ when: 'after', operation: 'pending-outbox' }),
	nth('send-email'),
	nth('mark-sent'),
	anywhere(8)
);
const worker: fc.Arbitrary<WorkerSpec> = fc.oneof(
	{
		arbitrary: fc.record({
			does: fc.constant('deliver' as const),
			event: fc.nat(propertyEvents.length - 1),
			crash: deliveryCrash
		}),
		weight: 3
	},
	{ arbitrary: fc.record({ does: fc.constant('relay' as const), crash: relayCrash }), weight: 2 }
);
const round: fc.Arbitrary<Round> = fc.record({
	// Down one round in four; shrinks towards up.
	providerDown: fc.integer({ min: 0, max: 3 }).map((n) => n === 3),
	workers: fc.array(worker, { minLength: 1, maxLength: 3 }),
	picks: fc.array(fc.nat(5), { maxLength: 40 })
});
export const rounds = fc.array(round, { minLength: 1, maxLength: 4 });

function saidCrash(crash: CrashPoint | null): string {
	if (!crash) return '';
	switch (crash.when) {
		case 'after':
			return `, dies after ${crash.operation} #${crash.nth ?? 1}`;
		case 'after-operations':
			return `, dies after ${crash.count} operations`;
		case 'before-commit':
			return ', dies before its commit';
		case 'before-write':
			return ', dies before its first write';
		case 'before-answering':
			return ', dies before answering';
	}
}

export function tellRounds(plan: Round[]): string {
	let d = 0;
	let r = 0;
	return plan
		.map((round, i) => {
			const workers = round.workers.map((w) =>
				w.does === 'deliver'
					? `D${++d} delivers ${saidIdentity(propertyEvents[w.event]!)} "${propertyEvents[w.event]!.subject}"${saidCrash(w.crash)}`
					: `R${++r} relays${saidCrash(w.crash)}`
			);
			return `round ${i + 1}${round.providerDown ? ' (the provider is down)' : ''}: ${workers.join('; ')}`;
		})
		.join('\n');
}

// What a plan of rounds left: the committed rows, the inbox, the workers that threw, and the story so far.
export type RoundsPlayed = {
	committed: Awaited<ReturnType<OutboxWorld['snapshot']>>['committed'];
	inbox: Awaited<ReturnType<OutboxWorld['snapshot']>>['inbox'];
	problems: string[];
	stories: string[];
};

// Plays the rounds and returns what broke the property, or null.
export async function checkRounds(sender: Sender, plan: Round[]): Promise<string | null> {
	return judgeRounds(plan, await playRounds(sender, plan));
}

// Plays the rounds; judgeRounds says whether what they left keeps the property (the grader runs them apart).
// On the in-memory model unless given another database (PostgreSQL's empty tables, crash-points-on-postgres).
export async function playRounds(sender: Sender, plan: Round[], db?: SharedDatabase): Promise<RoundsPlayed> {
	const world = new OutboxWorld(db);
	const stories: string[] = [];
	let d = 0;
	let r = 0;
	const problems: string[] = [];
	const play = async (label: string, plans: WorkerPlan<unknown>[], picks: number[]) => {
		const from = world.db.trace.length;
		const run = await runWorkers(world.db, plans, fromNumbers(picks), { tell: answered });
		stories.push(`${label}\n${tellTrace(world.db.trace.slice(from))}`);
		for (const [name, ending] of run.endings) {
			if (ending.kind !== 'failed') continue;
			// Sending inside the handler fails the delivery while the provider is down: the sender retries later.
			if (ending.error instanceof ProviderDown && name.startsWith('D')) continue;
			const error = ending.error as Error;
			problems.push(`${name} threw ${error?.name}: ${error?.message}`);
		}
	};
	for (const [i, round] of plan.entries()) {
		if (round.providerDown) world.provider.goDown();
		else world.provider.comeBack();
		const plans: WorkerPlan<unknown>[] = [];
		for (const spec of round.workers) {
			if (spec.does === 'deliver') {
				const event = propertyEvents[spec.event]!;
				plans.push({
					name: `D${++d}`,
					run: (conn) => sender.handle(conn, { ...event }, world.mailFor(conn)),
					crash: spec.crash
				});
			} else {
				const relay = sender.relay;
				r++;
				if (relay)
					plans.push({ name: `R${r}`, run: (conn) => relay(conn, world.mailFor(conn)), crash: spec.crash });
			}
		}
		if (plans.length) await play(`round ${i + 1}`, plans, round.picks);
	}
	world.provider.comeBack();
	const relay = sender.relay;
	if (relay)
		await play(
			'the last, clean relay run',
			[{ name: 'R-last', run: (conn) => relay(conn, world.mailFor(conn)) }],
			[]
		);

	const { committed, inbox } = await world.snapshot();
	return { committed, inbox, problems, stories };
}

export function judgeRounds(plan: Round[], played: RoundsPlayed): string | null {
	const { committed, inbox, stories } = played;
	const problems = [...played.problems];
	const ids = committed.tickets.map((ticket) => ticket.id);
	for (const ticket of committed.tickets) {
		const emails = inbox.filter((email) => email.ticketId === ticket.id);
		if (emails.length !== 1)
			problems.push(
				`ticket ${saidTicket(ticket)} has ${emails.length} delivered emails, not 1${emails.length ? `: ${emails.map(saidEmail).join('; ')}` : ''}`
			);
	}
	for (const email of inbox)
		if (!ids.includes(email.ticketId))
			problems.push(`an email about ticket #${email.ticketId}, which does not exist: ${saidEmail(email)}`);
	const identities = committed.tickets.map((ticket) =>
		committed.receipts.find((receipt) => receipt.ticketId === ticket.id)
	);
	for (const [i, receipt] of identities.entries()) {
		if (!receipt) problems.push(`ticket ${saidTicket(committed.tickets[i]!)} has no receipt`);
	}
	if (problems.length === 0) return null;
	const unique = [...new Set(problems)];
	return `${unique.join('\n')}\n\nThe rounds:\n${tellRounds(plan)}\n\nWhat happened:\n${stories.join('\n')}`;
}

// The fast-check property itself, for a sender.
export function outboxProperty(sender: () => Sender) {
	return fc.asyncProperty(rounds, async (plan) => {
		const problem = await checkRounds(sender(), plan);
		if (problem) throw new Error(problem);
	});
}

// A property test's time limit: 150 cases take about half a second, so room for a machine busy with other work.
export const propertyTime = { timeout: 60_000 };

const outboxSeed = 20260505;

// Runs the property and, when it breaks, throws one message a learner can read from the top: what broke, the
// rounds, the trace, and how to replay exactly that case (OUTBOX_SEED and OUTBOX_PATH, as exercise 03 does).
export async function assertOutboxProperty(sender: () => Sender, options: fc.Parameters<[Round[]]> = {}) {
	// The same cases every run (a fixed seed), so a wrong outbox fails every time, and the same way until it is
	// fixed; OUTBOX_SEED picks other cases.
	const seed = process.env.OUTBOX_SEED ? Number(process.env.OUTBOX_SEED) : outboxSeed;
	const path = process.env.OUTBOX_PATH;
	const replay = { seed, ...(path ? { path } : {}) };
	const result = await fc.check(outboxProperty(sender), { ...options, ...replay });
	if (!result.failed) return;
	const cause =
		result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
	throw new ScheduleMismatch(
		[
			`The outbox property broke after ${result.numRuns} runs (shrunk ${result.numShrinks} times).`,
			`Replay it: OUTBOX_SEED=${result.seed} OUTBOX_PATH=${result.counterexamplePath} npm test exercises/05`,
			'',
			cause
		].join('\n')
	);
}
