// The handler schedules: deliveries one at a time, and what each of the lesson's handlers must do. The
// lesson's nine, and after them the ones marked "beyond": mistakes this workbook pins that the lesson does not play.
import type { Fault, Outcome, Receipt, Ticket, Webhook } from '../core/model.ts';
import { loadSchedule, loadSchedules, type Check } from '../core/schedules.ts';

export type HandlerName = 'create-every-time' | 'receipt-in-commit';
export const handlerNames: readonly HandlerName[] = ['create-every-time', 'receipt-in-commit'];

export type Delivery = { event: Webhook; fault: Fault };
export type Expectation = { outcomes: Outcome[]; tickets: Ticket[]; receipts: Receipt[] };
export type HandlerSchedule = {
	name: string;
	title: string;
	order?: number;
	beyond?: true;
	story: string;
	deliveries: Delivery[];
	expect: Record<HandlerName, Expectation>;
};

const check: Check<HandlerSchedule> = (schedule, fail) => {
	for (const handler of handlerNames) {
		const { outcomes } = schedule.expect[handler];
		if (outcomes.length !== schedule.deliveries.length) {
			fail(
				`expect.${handler}.outcomes`,
				`${outcomes.length} outcomes for ${schedule.deliveries.length} deliveries`
			);
		}
		outcomes.forEach((outcome, i) => {
			const needsTicket = outcome.kind === 'created' || outcome.kind === 'replayed';
			if (needsTicket !== (outcome.ticketId !== null)) {
				const should = needsTicket ? 'needs a ticketId' : 'must have ticketId null';
				fail(`expect.${handler}.outcomes[${i}].ticketId`, `a ${outcome.kind} outcome ${should}`);
			}
		});
	}
};

export function handlerSchedules() {
	return loadSchedules<HandlerSchedule>('handler', check);
}

// The two groups, each in its own order: the lesson's nine, then the ones beyond them.
export function handlerScheduleGroups() {
	const all = handlerSchedules();
	return {
		lesson: all.filter((schedule) => !schedule.beyond),
		beyond: all.filter((schedule) => schedule.beyond)
	};
}

export function loadHandlerSchedule(path: string) {
	return loadSchedule<HandlerSchedule>('handler', path, check);
}
