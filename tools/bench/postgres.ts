// npm run bench:postgres: how long a PostgreSQL takes to start, and each schedule to play on it next to the
// in-memory model, the median of 5 runs each. Prints figures; asserts nothing. Usage: [--runs 5] [--starts 5]
import { handleSeparately } from '../../exercises/03-the-race/separate.ts';
import { sendInside } from '../../exercises/05-email-outbox/send-inside.ts';
import { handleAtomically } from '../../solutions/03-the-race/atomic.ts';
import { handleWithOutbox, relay } from '../../solutions/05-email-outbox/outbox.ts';
import { handlerSchedules } from '#harness/handler/schedules.ts';
import { InMemoryDatabase } from '#harness/database/database.ts';
import { playOn } from '#harness/database/open-database.ts';
import { outboxSchedules } from '#harness/outbox/schedules.ts';
import { judgeOutbox, playOutbox, type Sender } from '#harness/outbox/play.ts';
import { judgeRace, playDeliveries, playRace } from '#harness/race/play.ts';
import { raceSchedules } from '#harness/race/schedules.ts';
import { PostgresPlace, prepareTemplate } from '#harness/postgres/place.ts';
import { startPostgres } from '#harness/postgres/server.ts';

const option = (name: string, fallback: number) => {
	const at = process.argv.indexOf(`--${name}`);
	const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
	if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number, at least 1`);
	return value;
};
const runs = option('runs', 5);
const starts = option('starts', 5);

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
async function medianMs(act: () => Promise<unknown>, times: number): Promise<number> {
	const took: number[] = [];
	for (let i = 0; i < times; i++) {
		const started = performance.now();
		await act();
		took.push(performance.now() - started);
	}
	return median(took);
}

const startTimes: number[] = [];
for (let i = 0; i < starts; i++) {
	const started = performance.now();
	const server = await startPostgres();
	startTimes.push(performance.now() - started);
	await server.stop();
}
console.log(
	`server start (initdb and start, on a free port): median ${median(startTimes).toFixed(0)} ms of ${starts}`
);

const server = await startPostgres();
try {
	await prepareTemplate(server.url);
	const place = await PostgresPlace.create(server.url);
	const onPostgres = () => playOn(() => place.fresh());
	const inMemory = () => playOn(() => new InMemoryDatabase());
	const outboxRelay = (): Sender => ({ name: 'outbox-relay', handle: handleWithOutbox, relay });
	const inside = (): Sender => ({ name: 'send-inside', handle: sendInside, relay: null });

	// One line per schedule: the median on PostgreSQL, on the model, and whether PostgreSQL met it.
	type Played = { label: string; play: () => Promise<string | null> };
	const plays: Played[] = [
		...raceSchedules().flatMap((schedule) =>
			(['separate', 'atomic'] as const).map((as) => ({
				label: `race/${schedule.name} as ${as}`,
				play: async () =>
					judgeRace(
						schedule,
						as,
						await playRace(schedule, as === 'atomic' ? handleAtomically : handleSeparately)
					)
			}))
		),
		...handlerSchedules().map((schedule) => ({
			label: `handler/${schedule.name}, one delivery at a time, as atomic`,
			play: async () => (await playDeliveries(schedule, handleAtomically), null)
		})),
		...outboxSchedules().flatMap((schedule) =>
			[outboxRelay, inside].map((sender) => ({
				label: `outbox/${schedule.name} as ${sender().name}`,
				play: async () => judgeOutbox(schedule, sender().name, await playOutbox(schedule, sender()))
			}))
		)
	];
	const width = Math.max(...plays.map((p) => p.label.length));
	console.log(`\n${'schedule'.padEnd(width)}  PostgreSQL    model  (median of ${runs})`);
	let total = 0;
	for (const { label, play } of plays) {
		onPostgres();
		const problem = await play();
		const pg = await medianMs(play, runs);
		inMemory();
		const memory = await medianMs(play, runs);
		total += pg;
		const note = problem ? '  NOT MET on PostgreSQL' : '';
		console.log(
			`${label.padEnd(width)}  ${pg.toFixed(1).padStart(7)} ms ${memory.toFixed(2).padStart(6)} ms${note}`
		);
	}
	console.log(`\n${plays.length} schedules: ${total.toFixed(0)} ms on PostgreSQL in all (medians summed)`);
	await place.drop();
} finally {
	await server.stop();
}
