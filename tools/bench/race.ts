// npm run bench:race: how many interleavings the race checks explore, and how long that takes, for two and
// three workers on evt-42, against separate.ts and the solution's fix. Prints figures; asserts nothing.
//   --full3   also walk every interleaving of three workers on the fix without pruning (slower)
import { handleSeparately } from '../../exercises/03-the-race/separate.ts';
import { handleAtomically } from '../../solutions/03-the-race/atomic.ts';
import type { RaceHandler } from '#harness/race/play.ts';
import { exploreSameEvent } from '#harness/race/explore.ts';

type Row = {
	workers: number;
	handler: string;
	walk: string;
	interleavings: number;
	runs: number;
	broken: number;
	ms: number;
};

async function measure(handler: string, handle: RaceHandler, workers: number, prune: boolean): Promise<Row> {
	const started = performance.now();
	const explored = await exploreSameEvent(handle, workers, { prune });
	const ms = performance.now() - started;
	return {
		workers,
		handler,
		walk: prune ? 'states (pruned)' : 'every interleaving',
		interleavings: explored.complete,
		runs: explored.runs,
		broken: explored.failed,
		ms
	};
}

const handlers: [string, RaceHandler][] = [
	['separate.ts', handleSeparately],
	['atomic.ts (solution)', handleAtomically]
];
const rows: Row[] = [];
for (const workers of [2, 3]) {
	for (const [name, handle] of handlers) {
		for (const prune of [false, true]) {
			const full = !prune && workers === 3 && name.startsWith('atomic');
			if (full && !process.argv.includes('--full3')) continue;
			rows.push(await measure(name, handle, workers, prune));
		}
	}
}

const header = ['workers', 'handler', 'walk', 'runs to the end', 'runs started', 'broken', 'time'];
const cells = rows.map((row) => [
	String(row.workers),
	row.handler,
	row.walk,
	String(row.interleavings),
	String(row.runs),
	String(row.broken),
	`${row.ms.toFixed(0)} ms`
]);
const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i]!.length)));
const line = (cell: string[]) =>
	cell
		.map((text, i) => text.padEnd(widths[i]!))
		.join('  ')
		.trimEnd();
console.log(line(header));
for (const cell of cells) console.log(line(cell));
console.log(
	'\n"runs to the end" are whole interleavings judged; a pruned walk stops a run at a state an earlier run has been in.'
);
if (!process.argv.includes('--full3'))
	console.log('Add --full3 to walk every interleaving of three workers on the fix.');
