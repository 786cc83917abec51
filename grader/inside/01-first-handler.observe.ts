// Exercise 01 in the sandbox: plays handler schedules on the learner's TicketHandler and reports what it did.
import { playHandler } from '#harness/handler/play.ts';
import type { Observers } from './observer.ts';
import { snapshotCopy } from './snapshot-copy.ts';

export const observers: Observers = {
	schedule: ({ 'handler.ts': code }, schedule) => playHandler(schedule, new code.TicketHandler()),
	'snapshot-copy': ({ 'handler.ts': code }) => snapshotCopy(new code.TicketHandler())
};
