// npm run bench:outbox: how long the outbox schedules and property take, and how soon the property catches
// send-inside.ts. Prints figures; asserts nothing. Usage: npx tsx tools/bench/outbox.ts [--cases 1000]
import fc from 'fast-check';
import { sendInside } from '../../exercises/05-email-outbox/send-inside.ts';
import { handleWithOutbox, relay } from '../../solutions/05-email-outbox/outbox.ts';
import { outboxProperty } from '#harness/outbox/property.ts';
import { outboxSchedules } from '#harness/outbox/schedules.ts';
import { judgeOutbox, playOutbox, type Sender } from '#harness/outbox/play.ts';

const casesAt = process.argv.indexOf('--cases');
const cases = casesAt > 0 ? Number(process.argv[casesAt + 1]) : 1000;
if (!Number.isInteger(cases) || cases < 1) throw new Error('--cases wants a whole number, at least 1');

const outboxRelay = (): Sender => ({ name: 'outbox-relay', handle: handleWithOutbox, relay });
const inside = (): Sender => ({ name: 'send-inside', handle: sendInside, relay: null });

async function timed<T>(act: () => Promise<T>): Promise<[T, number]> {
	const started = performance.now();
	const result = await act();
	return [result, performance.now() - started];
}

const schedules = outboxSchedules();
for (const sender of [outboxRelay, inside]) {
	const [wrong, ms] = await timed(async () => {
		let wrong = 0;
		for (const schedule of schedules)
			if (judgeOutbox(schedule, sender().name, await playOutbox(schedule, sender()))) wrong++;
		return wrong;
	});
	console.log(
		`${schedules.length} schedules as ${sender().name}: ${ms.toFixed(0)} ms (${(ms / schedules.length).toFixed(2)} ms each), ${wrong} not met`
	);
}

const [solution, solutionMs] = await timed(() =>
	fc.check(outboxProperty(outboxRelay), { numRuns: cases, seed: 1 })
);
console.log(
	`property on the solution: ${solution.numRuns} cases in ${solutionMs.toFixed(0)} ms (${(solutionMs / solution.numRuns).toFixed(2)} ms per case), ${solution.failed ? 'BROKEN' : 'held'}`
);

const seeds = 20;
const found: number[] = [];
const [, insideMs] = await timed(async () => {
	for (let seed = 1; seed <= seeds; seed++) {
		const result = await fc.check(outboxProperty(inside), { numRuns: 200, seed });
		if (result.failed) found.push(result.numRuns);
	}
});
found.sort((a, b) => a - b);
const median = found.length ? found[Math.floor(found.length / 2)] : undefined;
console.log(
	`property on send-inside: broken under ${found.length} of ${seeds} seeds (200 cases each), first failing case: median ${median ?? '-'}, worst ${found.at(-1) ?? '-'}; ${insideMs.toFixed(0)} ms in all, shrinking included`
);
