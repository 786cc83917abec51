// npx tsx tools/bench/cluster.ts [rounds]: a run's cluster made and removed, an overlay on the base against a
// copy of it (grader/sandbox/cluster.ts), paired: each round runs one process of each way, one after the other,
// so both see the same load. Each process makes its base and one cluster first, then times 4 clusters made and
// removed, CPU counted by the kernel (everything it starts, PostgreSQL apart). Prints each round, then the
// medians and the overlay's share of the copy's CPU.
import { spawnSync } from 'node:child_process';
import { cpuAccount, spent } from './cpu-account.ts';

const rounds = Number(process.argv[2] ?? 5);
type Figures = { way: string; wall: number; all: number; postgres: number; grader: number };

if (process.env.BENCH_CLUSTER_CHILD === '1') {
	const { GradingPostgres } = await import('../../grader/sandbox/postgres.ts');
	const account = cpuAccount();
	const databases = new GradingPostgres();
	try {
		const first = await databases.runDatabase();
		await first.drop();
		const [before, started] = [account?.read(), Date.now()];
		for (let i = 0; i < 4; i++) await (await databases.runDatabase()).drop();
		const wall = (Date.now() - started) / 4000;
		const cpu =
			account && before ? spent(account.read(), before, 4) : { all: NaN, postgres: NaN, grader: NaN };
		console.log(JSON.stringify({ way: first.way, wall, ...cpu }));
	} finally {
		await databases.stop();
		account?.close();
	}
} else {
	const figures: Record<string, Figures[]> = { copy: [], overlay: [] };
	for (let round = 0; round < rounds; round++)
		for (const copy of round % 2 === 0 ? ['1', '0'] : ['0', '1']) {
			const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename], {
				env: { ...process.env, BENCH_CLUSTER_CHILD: '1', WORKBOOK_GRADER_CLUSTER_COPY: copy },
				encoding: 'utf8'
			});
			const said = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Figures;
			figures[copy === '1' ? 'copy' : said.way]?.push(said);
			console.log(
				`round ${round + 1}, ${said.way}: ${said.wall.toFixed(3)} s wall, CPU ${said.all.toFixed(3)} s (grader ${said.grader.toFixed(3)}, PostgreSQL ${said.postgres.toFixed(3)})`
			);
		}
	const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
	const of = (way: string, key: keyof Omit<Figures, 'way'>) => median(figures[way]!.map((each) => each[key]));
	for (const way of ['copy', 'overlay'])
		console.log(
			`${way}, median of ${figures[way]!.length}: ${of(way, 'wall').toFixed(3)} s wall, CPU ${of(way, 'all').toFixed(3)} s (grader ${of(way, 'grader').toFixed(3)}, PostgreSQL ${of(way, 'postgres').toFixed(3)})`
		);
	console.log(
		`overlay / copy: CPU ×${(of('overlay', 'all') / of('copy', 'all')).toFixed(2)}, wall ×${(of('overlay', 'wall') / of('copy', 'wall')).toFixed(2)}`
	);
}
