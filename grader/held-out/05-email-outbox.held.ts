// Exercise 05's held-out checks: the learner's outbox on random rounds of deliveries, relay runs, outages and
// crashes from the grader's seed, held to what must hold (exactly one email per committed ticket, none about a
// ticket that does not exist), which the reference passes. Interleavings depend on the code's own operations,
// so a step-by-step comparison with the reference would fail right solutions.
import { describe } from 'vitest';
import { heading } from '#shared/manifest.ts';
import { checkRounds, rounds } from '#shared/outbox-property.ts';
import type { Sender } from '#shared/play-outbox.ts';
import { handleWithOutbox, relay } from '../../exercises/05-email-outbox/outbox.ts';
import { heldOutChecks } from './seed.ts';

const outboxRelay = (): Sender => ({
	name: 'outbox-relay',
	handle: (db, event) => handleWithOutbox(db, event),
	relay
});

describe(heading('05'), () => {
	heldOutChecks('outbox rounds', rounds, (plan) => checkRounds(outboxRelay(), plan));
});
