// The outbox property: random deliveries, relay runs and provider outages, workers overlapping at random and
// crashing anywhere; then one clean relay run. Every committed ticket must have exactly one delivered email,
// and no email may be about a ticket that does not exist. The rounds are drawn here and played by rounds.ts.
import fc from 'fast-check';
import { ScheduleMismatch } from '../core/mismatch.ts';
import type { Sender } from './play.ts';
import type { CrashPoint } from '../scheduler/scheduler.ts';
import { checkRounds, propertyEvents, type Round, type WorkerSpec } from './rounds.ts';

const anywhere = (operations: number) =>
	fc.integer({ min: 0, max: operations }).map((count): CrashPoint => ({ when: 'after-operations', count }));
const nth = (operation: string) =>
	fc.integer({ min: 1, max: 3 }).map((n): CrashPoint => ({ when: 'after', operation, nth: n }));

const deliveryCrash: fc.Arbitrary<CrashPoint | null> = fc.oneof(
	{ arbitrary: fc.constant(null), weight: 3 },
	fc.constant<CrashPoint>({ when: 'before-commit' }),
	fc.constant<CrashPoint>({ when: 'before-answering' }),
	anywhere(6)
);
const relayCrash: fc.Arbitrary<CrashPoint | null> = fc.oneof(
	{ arbitrary: fc.constant(null), weight: 3 },
	fc.constant<CrashPoint>({ when: 'after', operation: 'pending-outbox' }),
	nth('send-email'),
	nth('mark-sent'),
	anywhere(8)
);
const worker: fc.Arbitrary<WorkerSpec> = fc.oneof(
	{
		arbitrary: fc.record({
			does: fc.constant('deliver' as const),
			event: fc.nat(propertyEvents.length - 1),
			crash: deliveryCrash
		}),
		weight: 3
	},
	{ arbitrary: fc.record({ does: fc.constant('relay' as const), crash: relayCrash }), weight: 2 }
);
const round: fc.Arbitrary<Round> = fc.record({
	// Down one round in four; shrinks towards up.
	providerDown: fc.integer({ min: 0, max: 3 }).map((n) => n === 3),
	workers: fc.array(worker, { minLength: 1, maxLength: 3 }),
	picks: fc.array(fc.nat(5), { maxLength: 40 })
});
export const rounds = fc.array(round, { minLength: 1, maxLength: 4 });
// The fast-check property itself, for a sender.
export function outboxProperty(sender: () => Sender) {
	return fc.asyncProperty(rounds, async (plan) => {
		const problem = await checkRounds(sender(), plan);
		if (problem) throw new Error(problem);
	});
}

// A property test's time limit: 150 cases take about half a second, so room for a machine busy with other work.
export const propertyTime = { timeout: 60_000 };

const outboxSeed = 20260505;

// Runs the property and, when it breaks, throws one message a learner can read from the top: what broke, the
// rounds, the trace, and how to replay exactly that case (OUTBOX_SEED and OUTBOX_PATH, as exercise 03 does).
export async function assertOutboxProperty(sender: () => Sender, options: fc.Parameters<[Round[]]> = {}) {
	// The same cases every run (a fixed seed), so a wrong outbox fails every time, and the same way until it is
	// fixed; OUTBOX_SEED picks other cases.
	const seed = process.env.OUTBOX_SEED ? Number(process.env.OUTBOX_SEED) : outboxSeed;
	const path = process.env.OUTBOX_PATH;
	const replay = { seed, ...(path ? { path } : {}) };
	const result = await fc.check(outboxProperty(sender), { ...options, ...replay });
	if (!result.failed) return;
	const cause =
		result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
	throw new ScheduleMismatch(
		[
			`The outbox property broke after ${result.numRuns} runs (shrunk ${result.numShrinks} times).`,
			`Replay it: OUTBOX_SEED=${result.seed} OUTBOX_PATH=${result.counterexamplePath} npm test exercises/05`,
			'',
			cause
		].join('\n')
	);
}
