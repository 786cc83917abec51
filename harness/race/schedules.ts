// The race schedules: workers handling webhooks at the same time, the order of their database operations,
// and what separate.ts and the fix must each leave.
import type { Receipt, Ticket, Webhook } from '../core/model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';

export type RaceImplementation = 'separate' | 'atomic';
export const raceImplementations: readonly RaceImplementation[] = ['separate', 'atomic'];

// The operations a race worker can crash after (schedules/schema/race.schema.json lists the same).
export type RaceOperation = 'find-receipt' | 'save-ticket' | 'save-receipt' | 'commit' | 'rollback';

export type RaceWorker = { name: string; event: Webhook; crashAfter?: RaceOperation };

// What a worker ended with: the handler's answer, a crash, or a database error it did not handle.
export type AnswerKind = 'created' | 'replayed' | 'conflict' | 'crashed' | 'failed';
export type ErrorName = 'unique-violation' | 'transaction-aborted' | 'deadlock' | 'misuse' | 'other';
export type Answer = { worker: string; kind: AnswerKind; ticketId: number | null; error?: ErrorName };

export type RaceExpectation = { answers: Answer[]; tickets: Ticket[]; receipts: Receipt[] };
export type RaceSchedule = {
	name: string;
	// The lesson draws two workers alternating: that schedule comes first, so a failure shows it first.
	order?: number;
	title: string;
	story: string;
	workers: RaceWorker[];
	interleaving: string[];
	expect: Record<RaceImplementation, RaceExpectation>;
};

const check: Check<RaceSchedule> = (schedule, fail) => {
	const names = schedule.workers.map((worker) => worker.name);
	names.forEach((name, i) => {
		if (names.indexOf(name) !== i) fail(`workers[${i}].name`, `${name} is declared twice`);
	});
	schedule.interleaving.forEach((name, i) => {
		if (!names.includes(name))
			fail(`interleaving[${i}]`, `"${name}" is not one of the workers (${names.join(', ')})`);
	});
	for (const implementation of raceImplementations) {
		const expected = schedule.expect[implementation];
		const at = `expect.${implementation}`;
		if (expected.answers.length !== names.length)
			fail(`${at}.answers`, `${expected.answers.length} answers for ${names.length} workers`);
		expected.answers.forEach((answer, i) => {
			if (answer.worker !== names[i])
				fail(
					`${at}.answers[${i}].worker`,
					`"${answer.worker}" should be ${names[i]}: one answer per worker, in order`
				);
			const needsTicket = answer.kind === 'created' || answer.kind === 'replayed';
			if (needsTicket !== (answer.ticketId !== null)) {
				const should = needsTicket ? 'needs a ticketId' : 'must have ticketId null';
				fail(`${at}.answers[${i}].ticketId`, `a ${answer.kind} answer ${should}`);
			}
			if ((answer.kind === 'failed') !== (answer.error !== undefined)) {
				const should = answer.kind === 'failed' ? 'needs an error' : 'has no error: leave it out';
				fail(`${at}.answers[${i}].error`, `a ${answer.kind} answer ${should}`);
			}
		});
		expected.tickets.forEach((ticket, i) => {
			const before = expected.tickets[i - 1];
			if (before && before.id >= ticket.id)
				fail(
					`${at}.tickets[${i}].id`,
					`tickets are listed by id, and #${ticket.id} comes after #${before.id}`
				);
		});
	}
};

export function raceSchedules() {
	return loadSchedules<RaceSchedule>('race', check);
}

export function loadRaceSchedule(path: string) {
	return loadSchedule<RaceSchedule>('race', path, check);
}
