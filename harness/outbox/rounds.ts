// Rounds of the outbox property, played and judged: deliveries, relay runs and provider outages, workers
// overlapping as the picks say and crashing where the plan says; then one clean relay run. Every committed ticket
// must have exactly one delivered email, and no email may be about a ticket that does not exist.
//
//   const played = await playRounds(sender, plan);   // plan: Round[], drawn by property.ts (fast-check)
//   judgeRounds(plan, played);                       // what broke the property, told with the rounds, or null
//
// Nothing here draws: the grader's sandbox plays the rounds it is handed, so this file and its imports load no
// fast-check (property.ts draws the rounds and checks the property in 05's tests).
import { ProviderDown } from './mail-provider.ts';
import type { Webhook } from '../core/model.ts';
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
