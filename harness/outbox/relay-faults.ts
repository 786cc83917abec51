// One relay run against a provider that answers call by call: every way the sends of three pending rows can go
// (accepted, down, a reused key refused), and a bug thrown at each of them, each compared with what 05's README
// promises of a relay run. Each pending row is sent once, oldest first; a row is marked sent exactly when the
// provider accepted its email; a refusal (ProviderDown, KeyReused) leaves its row pending and the relay goes on
// to the next row; any other error is thrown, with the rows before it marked and the rows after it not sent.
// The outbox property's provider is down for a whole round, so it cannot tell a relay that stops at the first
// refusal from one that goes on; real providers fail one request at a time.
//
//   await brokenRelayRun(relay);              // all 30 runs: the first that breaks the promise, told, or null
//   relayFaultPlans();                        // the 30 plans, each one CallFault per row
//   judgeRelayRun(plan, await playRelayRun(relay, plan)); // one run (the grader plays and judges apart)
import { InMemoryDatabase, type Connection } from '../database/database.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';
import { NotWrittenYet } from '../core/todo.ts';
import { leftOpenMeans } from '../scheduler/left-open.ts';
import { KeyReused, ProviderDown, type Mail } from './mail-provider.ts';

export type Relay = (db: Connection, mail: Mail) => Promise<void>;
// What the provider does with one call: takes it, is down, refuses its key, or the mail client has a bug.
export type CallFault = 'accepted' | 'down' | 'refused' | 'bug';

const rows = [1, 2, 3].map((ticketId) => ({
	key: `ticket-confirmation/acme/${ticketId}`,
	tenant: 'acme',
	ticketId,
	to: 'acme',
	subject: `Question ${ticketId}`
}));

// Every plan of the provider's answers: 27 of accepted, down and refused, then a bug at each row.
export function relayFaultPlans(): CallFault[][] {
	const answers: CallFault[] = ['accepted', 'down', 'refused'];
	const plans: CallFault[][] = [[]];
	for (let i = 0; i < rows.length; i++)
		plans.splice(0, plans.length, ...plans.flatMap((plan) => answers.map((answer) => [...plan, answer])));
	for (let i = 0; i < rows.length; i++) plans.push(rows.map((_, j) => (j === i ? 'bug' : 'accepted')));
	return plans;
}

export type RunSaid = { sent: string[]; marked: string[]; ended: string };

// What the README's relay does under the plan.
function expected(plan: CallFault[]): RunSaid {
	const bug = plan.indexOf('bug');
	const tried = bug === -1 ? rows : rows.slice(0, bug + 1);
	return {
		sent: tried.map((row) => row.key),
		marked: tried.filter((_, i) => plan[i] === 'accepted').map((row) => row.key),
		ended: bug === -1 ? 'finishes' : 'throws the bug'
	};
}

const bugMessage = 'a bug in the mail client';

// Plays one run of the relay under the plan, on three pending rows of a fresh database.
export async function playRelayRun(relay: Relay, plan: CallFault[]): Promise<RunSaid> {
	const db = new InMemoryDatabase();
	const seed = db.connect('seed');
	for (const row of rows) await seed.saveOutbox(row);
	const sent: string[] = [];
	const mail: Mail = {
		async send(email) {
			const fault = plan[sent.length] ?? 'accepted';
			sent.push(email.key);
			if (fault === 'down')
				throw new ProviderDown(`the mail provider is down: ${email.key} was not delivered`);
			if (fault === 'refused') throw new KeyReused(`the key ${email.key} already sent another email`);
			if (fault === 'bug') throw new Error(bugMessage);
			return { messageId: `msg-${sent.length}`, duplicate: false };
		}
	};
	let ended = 'finishes';
	const conn = db.connect('R');
	try {
		await relay(conn, mail);
	} catch (error) {
		// A stub is said as a stub, as every other test of 05 says it.
		if (error instanceof NotWrittenYet) throw new ScheduleMismatch(error.message);
		ended =
			(error as Error)?.message === bugMessage
				? 'throws the bug'
				: `throws ${(error as Error)?.name ?? String(error)}`;
	}
	// As the scheduler's end of a worker reads it (left-open.ts): the call came back inside a transaction.
	if (conn.inTransaction) ended += leftOpenWords;
	const marked = (await db.committed()).outbox.filter((row) => row.state === 'sent').map((row) => row.key);
	return { sent, marked, ended };
}

const said = (keys: string[]) =>
	keys.length ? keys.map((key) => key.replace(/^.*\//, '#')).join(', ') : 'none';
const saidPlan = (plan: CallFault[]) =>
	rows
		.map((row, i) => `#${row.ticketId}: ${plan[i] === 'refused' ? 'refused (a reused key)' : plan[i]}`)
		.join(', ');

// How a run's end is said when the relay came back with its transaction still open.
const leftOpenWords = ', with its transaction still open';

function whatItMeans(plan: CallFault[], ran: RunSaid): string {
	if (ran.ended.endsWith(leftOpenWords))
		return `your relay came back with its transaction still open. ${leftOpenMeans}`;
	const refused = rows.filter((_, i) => plan[i] === 'down' || plan[i] === 'refused').map((row) => row.key);
	if (ran.marked.some((key) => refused.includes(key)))
		return 'a row was marked sent though the provider did not take its email: that email is lost for good.';
	if (plan.includes('bug') && ran.ended === 'finishes')
		return 'your relay caught an error that is not the provider refusing: it hides a bug, or the database gone.';
	if (ran.sent.length < expected(plan).sent.length)
		return 'your relay stopped at a refusal: one refused row holds back every row after it, run after run.';
	return 'a row accepted by the provider must be marked sent, once, and each pending row sent once.';
}

// What went another way in one run under the plan, told with what the provider answered, or null.
export function judgeRelayRun(plan: CallFault[], ran: RunSaid): string | null {
	const want = expected(plan);
	if (JSON.stringify(ran) === JSON.stringify(want)) return null;
	return [
		`One relay run over three pending rows, the provider answering call by call: ${saidPlan(plan)}.`,
		`expected: sends ${said(want.sent)}; marks sent ${said(want.marked)}; the relay ${want.ended}.`,
		`your relay: sends ${said(ran.sent)}; marks sent ${said(ran.marked)}; the relay ${ran.ended}.`,
		'',
		`What this usually means: ${whatItMeans(plan, ran)}`
	].join('\n');
}

// The first plan whose run breaks the README's promise, or null.
export async function brokenRelayRun(relay: Relay): Promise<string | null> {
	for (const plan of relayFaultPlans()) {
		const problem = judgeRelayRun(plan, await playRelayRun(relay, plan));
		if (problem) return problem;
	}
	return null;
}
