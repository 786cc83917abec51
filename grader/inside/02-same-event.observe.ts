// Exercise 02 in the sandbox: sameEvent and replay on given pairs, and ReceiptHandler on handler schedules.
import type { Webhook } from '#harness/core/model.ts';
import { playHandler } from '#harness/handler/play.ts';
import type { Observers } from './observer.ts';
import { mustBe, settled } from './plain.ts';
import { snapshotCopy } from './snapshot-copy.ts';

export const observers: Observers = {
	// sameEvent's contract is a boolean: an object of the learner's is not taken for one, whatever it says of itself.
	'same-event': ({ 'handler.ts': code }, [a, b]) =>
		mustBe('boolean', code.sameEvent({ ...a }, { ...b }), 'sameEvent'),
	// replay's contract is an outcome, not a promise of one: what it answers is taken as it is, never awaited.
	replay: ({ 'handler.ts': code }, [receipt, event]) =>
		settled(code.replay({ ...receipt }, { ...event }), 'replay'),
	schedule: ({ 'handler.ts': code }, schedule) => playHandler(schedule, new code.ReceiptHandler()),
	'snapshot-copy': ({ 'handler.ts': code }) => snapshotCopy(new code.ReceiptHandler()),
	// A repeat whose worker dies after the commit: its answer, and the store before and after it.
	'repeat-after-commit': ({ 'handler.ts': code }, event: Webhook) => {
		const handler = new code.ReceiptHandler();
		handler.handle({ ...event });
		const before = structuredClone(handler.snapshot());
		const answer = handler.handle({ ...event }, 'after-commit');
		return { answer, before, after: handler.snapshot() };
	}
};
