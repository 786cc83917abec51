// The status schedules: changes to existing tickets delivered one at a time, and what each way of applying them
// must answer and store.
import type { Fault } from '../core/model.ts';
import type { Answer, Change, ChangeReceipt, StartTicket, StatusTicket } from './model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';

// as-it-arrives: no receipt, no version check. receipts-only: a receipt for every change, no version check.
// versioned: exercise 07's rules, a version for the status and a receipt for each comment.
export type ApplierName = 'as-it-arrives' | 'receipts-only' | 'versioned';
export const applierNames: readonly ApplierName[] = ['as-it-arrives', 'receipts-only', 'versioned'];

export type ChangeDelivery = { change: Change; fault: Fault };
export type StatusExpectation = { answers: Answer[]; tickets: StatusTicket[]; receipts: ChangeReceipt[] };
export type StatusSchedule = {
	name: string;
	title: string;
	order?: number;
	story: string;
	start: StartTicket[];
	deliveries: ChangeDelivery[];
	expect: Record<ApplierName, StatusExpectation>;
};
// What a judge needs: a shipped schedule, or a made-up one that expects only some columns (made-up.ts).
export type JudgedSchedule = Omit<StatusSchedule, 'expect'> & {
	expect: Partial<Record<ApplierName, StatusExpectation>>;
};

const check: Check<StatusSchedule> = (schedule, fail) => {
	const ids = schedule.start.map((ticket) => ticket.id);
	ids.forEach((id, i) => {
		if (ids.indexOf(id) !== i) fail(`start[${i}].id`, `ticket #${id} is already in start`);
	});
	schedule.deliveries.forEach(({ change }, i) => {
		if (!ids.includes(change.ticketId))
			fail(`deliveries[${i}].change.ticketId`, `no ticket #${change.ticketId} in start`);
	});
	for (const applier of applierNames) {
		const { answers } = schedule.expect[applier];
		if (answers.length !== schedule.deliveries.length)
			fail(
				`expect.${applier}.answers`,
				`${answers.length} answers for ${schedule.deliveries.length} deliveries`
			);
		answers.forEach((answer, i) => {
			const { change, fault } = schedule.deliveries[i]!;
			if ((answer.kind === 'crashed') !== (fault !== 'none'))
				fail(
					`expect.${applier}.answers[${i}]`,
					fault === 'none' ? 'the worker lives, so it answers' : `the worker dies (${fault}): crashed`
				);
			if (answer.kind === 'commented' && change.kind !== 'add-comment')
				fail(`expect.${applier}.answers[${i}]`, 'a status change is never answered "commented"');
			if ((answer.kind === 'set' || answer.kind === 'stale') && change.kind !== 'set-status')
				fail(`expect.${applier}.answers[${i}]`, `a comment is never answered "${answer.kind}"`);
		});
	}
};

export function statusSchedules() {
	return loadSchedules<StatusSchedule>('status', check);
}

export function loadStatusSchedule(path: string) {
	return loadSchedule<StatusSchedule>('status', path, check);
}
