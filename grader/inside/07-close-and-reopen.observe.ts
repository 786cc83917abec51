// Exercise 07 in the sandbox: the learner's setStatus and addComment played on status schedules, and on the
// two given cases (one close sent five times; a change decided on an old version).
import { playStatus } from '#harness/status/play.ts';
import { ChangeHandler, type SetStatus } from '#harness/status/model.ts';
import type { Code, Observers } from './observer.ts';

const rules = (code: Code) => ({ setStatus: code.setStatus, addComment: code.addComment });
const close = (changeId: string, decidedOn: number): SetStatus => ({
	kind: 'set-status',
	changeId,
	ticketId: 1,
	status: 'closed',
	decidedOn
});
const handler = (code: Code) => new ChangeHandler(rules(code), [{ id: 1, status: 'open', version: 1 }]);

export const observers: Observers = {
	schedule: ({ 'status.ts': code }, schedule) => playStatus(schedule, rules(code)),
	'close-five-times': ({ 'status.ts': code }) => {
		const h = handler(code);
		const answers = [1, 2, 3, 4, 5].map(() => h.handle(close('chg-1', 1)));
		return { answers, store: h.snapshot() };
	},
	'stale-change': ({ 'status.ts': code }) => {
		const h = handler(code);
		h.handle(close('chg-1', 1));
		const before = structuredClone(h.snapshot());
		const answer = h.handle({ ...close('chg-2', 1), status: 'open' });
		return { answer, before, after: h.snapshot() };
	}
};
