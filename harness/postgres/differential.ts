// The differential check: the same workers, the same picks, once on the in-memory model and once on PostgreSQL.
// Both must tell the same story, line for line (every operation's outcome, who waited for whom, who failed
// with which error, in the same steps), and leave the same committed rows (tickets with their burned ids,
// receipts, outbox). The first difference is reported with the schedule, both traces and how to replay it.
//
//   const problem = await differ('two-workers-alternate', () => plans, () => inTurn([...]), () => place.fresh());
//   if (problem) throw new ScheduleMismatch(problem);
import { InMemoryDatabase, type Contents, type SharedDatabase } from '../database/database.ts';
import { sideBySide } from '../core/report.ts';
import { runWorkers, type Pick, type WorkerPlan } from '../scheduler/scheduler.ts';
import { tellTrace } from '../scheduler/trace.ts';
import { answered, saidReceipt, saidTicket } from '../core/words.ts';

function rows(contents: Contents): string[] {
	return [
		...contents.tickets.map((ticket) => `ticket ${saidTicket(ticket)}`),
		...contents.receipts.map((receipt) => `receipt ${saidReceipt(receipt)}`),
		...contents.outbox.map((row) => `outbox #${row.id} ${row.key} ${row.state} (ticket #${row.ticketId})`)
	];
}

// One run, as the lines the check compares: the trace, then what was committed.
export type Told = { steps: string; trace: string[]; rows: string[] };

export async function tell(
	db: SharedDatabase,
	plans: readonly WorkerPlan<unknown>[],
	pick: Pick
): Promise<Told> {
	const run = await runWorkers(db, plans, pick, { tell: answered });
	return {
		steps: run.steps.join(' '),
		trace: tellTrace(run.trace).split('\n'),
		rows: rows(run.committed)
	};
}

// null when the model and PostgreSQL agree; otherwise what differs, where, and both runs in full.
export function compare(what: string, model: Told, server: Told): string | null {
	const same = (a: string[], b: string[]) => a.length === b.length && a.every((line, i) => line === b[i]);
	if (model.steps === server.steps && same(model.trace, server.trace) && same(model.rows, server.rows))
		return null;
	const at = model.trace.findIndex((line, i) => line !== server.trace[i]);
	const first =
		at >= 0
			? `The traces part at line ${at + 1}:\n  model:      ${model.trace[at]}\n  PostgreSQL: ${server.trace[at] ?? '(nothing)'}`
			: model.trace.length !== server.trace.length
				? 'PostgreSQL told more lines than the model.'
				: 'The traces agree, but not what was committed.';
	return [
		`The in-memory model and PostgreSQL disagree on ${what}.`,
		first,
		'',
		sideBySide([
			{ label: 'steps', expected: [model.steps], actual: [server.steps] },
			{ label: 'trace', expected: model.trace, actual: server.trace },
			{ label: 'committed', expected: model.rows, actual: server.rows }
		])
			.replace('expected', 'model   ')
			.replace('your code', 'PostgreSQL'),
		''
	].join('\n');
}

// Plays the same plans and picks on a fresh model and on the given server database, and compares them.
export async function differ(
	what: string,
	plans: () => readonly WorkerPlan<unknown>[],
	pick: () => Pick,
	server: () => Promise<SharedDatabase>,
	model: () => SharedDatabase = () => new InMemoryDatabase()
): Promise<string | null> {
	const onModel = await tell(model(), plans(), pick());
	const onServer = await tell(await server(), plans(), pick());
	return compare(what, onModel, onServer);
}
