// Every crash point of the outbox, one at a time, where the property (property.ts) only meets them at random:
// the handler dies at each of its steps (before its first write, after each operation, before its commit,
// after it, before answering), then the sender retries; the relay dies at each of its steps (after reading
// the pending rows, between sending an email and marking its row, after marking, after each operation), then
// runs again. Each case ends with one clean relay run, and is judged as the property is: every committed
// ticket has exactly one delivered email (the provider keeps at most one per key), none about a ticket that
// does not exist, and no worker throws.
//
//   const { cases, failures } = await exploreCrashPoints(sender, 'every');  // failures in the order played
//   failures[0]?.problem                    // the rounds in words, what broke, and the trace of each round
import type { CrashPoint } from '../scheduler/scheduler.ts';
import { it } from 'vitest';
import { propertyTime } from './property.ts';
import { judgeRounds, playRounds, type Round, type WorkerSpec } from './rounds.ts';
import type { Sender } from './play.ts';
import { ScheduleMismatch } from '../core/mismatch.ts';

const upTo = (n: number) => Array.from({ length: n + 1 }, (_, count) => count);
const afterOperations = (n: number) =>
	upTo(n).map((count): CrashPoint => ({ when: 'after-operations', count }));
const afterEach = (operation: string, times: number) =>
	upTo(times - 1).map((i): CrashPoint => ({ when: 'after', operation, nth: i + 1 }));

// The named points (what the loop plays), then every operation, up to more than a right handler or relay
// takes (what verify plays too): a crash point past a worker's end is a clean run.
export type Reach = 'named' | 'every';
export const handlerCrashPoints = (reach: Reach): CrashPoint[] => [
	{ when: 'before-write' },
	{ when: 'before-commit' },
	{ when: 'before-answering' },
	...(reach === 'every' ? afterOperations(10) : [])
];
export const relayCrashPoints = (reach: Reach): CrashPoint[] => [
	{ when: 'after', operation: 'pending-outbox' },
	...afterEach('send-email', 2),
	...afterEach('mark-sent', 2),
	{ when: 'before-commit' },
	{ when: 'before-answering' },
	...(reach === 'every' ? afterOperations(14) : [])
];

const round = (...workers: WorkerSpec[]): Round => ({ providerDown: false, workers, picks: [] });
const deliver = (event: number, crash: CrashPoint | null = null): WorkerSpec => ({
	does: 'deliver',
	event,
	crash
});
const relay = (crash: CrashPoint | null = null): WorkerSpec => ({ does: 'relay', crash });

// The plans: evt-42 (and evt-43, so the relay has two rows) with one worker dying at one point.
export function crashPlans(reach: Reach): Round[][] {
	const plans: Round[][] = [];
	for (const crash of handlerCrashPoints(reach)) {
		plans.push([round(deliver(0, crash)), round(deliver(0))]); // the retry comes before any relay
		plans.push([round(deliver(0, crash)), round(relay()), round(deliver(0))]); // a relay runs in between
	}
	for (const crash of relayCrashPoints(reach)) {
		plans.push([round(deliver(0), deliver(1)), round(relay(crash))]);
		plans.push([round(deliver(0), deliver(1)), round(relay(crash)), round(relay(crash))]); // it dies twice
	}
	return plans;
}

export type CrashFailure = { plan: Round[]; problem: string };

export async function exploreCrashPoints(sender: () => Sender, reach: Reach = 'named') {
	const plans = crashPlans(reach);
	const failures: CrashFailure[] = [];
	for (const plan of plans) {
		const played = await playRounds(sender(), plan);
		// A stub is said as a stub, once, before any crash point is judged.
		const stub = played.problems.find((p) => p.includes(' threw NotWrittenYet: '));
		if (stub) throw new ScheduleMismatch(stub.slice(stub.indexOf(': ') + 2));
		const problem = judgeRounds(plan, played);
		if (problem) failures.push({ plan, problem });
	}
	return { cases: plans.length, failures };
}

// The failure a learner reads: how many crash points break the promise, and the first in full.
export async function brokenCrashPoint(sender: () => Sender, reach: Reach = 'named'): Promise<string | null> {
	const { cases, failures } = await exploreCrashPoints(sender, reach);
	const first = failures[0];
	if (!first) return null;
	return `${failures.length} of ${cases} crash points break "every committed ticket has exactly one email". The first:\n${first.problem}`;
}

// The it() in 05's tests: the named crash points, one at a time (verify's harness tests play every one).
export function exploreOutboxCrashPoints(sender: () => Sender): void {
	it(
		'every crash point, one at a time (the handler before its write, before and after its commit; the relay after reading, between sending and marking, after marking), then the retry and a clean relay run: every committed ticket has exactly one email',
		propertyTime,
		async () => {
			const problem = await brokenCrashPoint(sender);
			if (problem) throw new ScheduleMismatch(problem);
		}
	);
}
