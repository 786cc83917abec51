// npm run bench:endpoint: exercise 06's solution under load, over HTTP on a real PostgreSQL. 50 clients send
// 2,000 requests over 200 keys (retries of the same body, the same key with another body, collisions while
// the first is in flight, and keys the endpoint refuses), then it checks what PostgreSQL holds: exactly one
// ticket per key that got a 201, and none for a key that only got 4xx. Prints figures; exits non-zero when the
// check fails. Usage: npx tsx tools/bench/endpoint.ts [--clients 50] [--requests 2000] [--keys 200]
import { startPostgres } from '#harness/postgres/server.ts';
import { PostgresStore } from '#harness/endpoint/postgres-store.ts';
import { serve } from '#harness/endpoint/server.ts';
import { post } from '#harness/endpoint/play.ts';
import type { Send } from '#harness/endpoint/schedules.ts';
import { tickets, webhooks } from '../../solutions/06-ticket-endpoint/endpoint.ts';
import { liveOptions } from '../../form/server/live-options.ts';

function option(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
	if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number, at least 1`);
	return value;
}
const clients = option('clients', 50);
const total = option('requests', 2000);
const keyCount = option('keys', 200);

// The same run every time: a small seeded generator (mulberry32).
let seed = 42;
function random(): number {
	seed = (seed + 0x6d2b79f5) | 0;
	let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
	t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// One key in ten is refused every time (no subject), so it must never get a ticket.
const keys = Array.from({ length: keyCount }, (_, i) => ({
	key: `bench-${i + 1}`,
	refused: i % 10 === 9,
	subject: `Ticket ${i + 1}`
}));
// Each request picks a key; one in ten of a good key's requests carries another body (a 422, or the first).
const jobs: Send[] = Array.from({ length: total }, (_, i) => {
	const { key, refused, subject } = keys[i < keyCount ? i : Math.floor(random() * keyCount)]!;
	const body = refused ? { subject: '' } : { subject: random() < 0.1 ? `${subject}, edited` : subject };
	return { do: 'send', route: 'tickets', key, json: body, fault: 'none', expect: { status: 201 } };
});
// Shuffled, so retries of one key often run at the same moment as its first request.
for (let i = jobs.length - 1; i > 0; i--) {
	const j = Math.floor(random() * (i + 1));
	[jobs[i], jobs[j]] = [jobs[j]!, jobs[i]!];
}

const postgres = await startPostgres();
let failed = false;
try {
	const store = await PostgresStore.open(postgres.url, 20);
	const options = liveOptions(store);
	const server = await serve({ '/api/tickets': tickets(options), '/webhooks': webhooks(options) });
	const statuses = new Map<string, number[]>();
	const created = new Map<string, Set<number>>();
	const latencies: number[] = [];
	let next = 0;
	let lost = 0;
	async function client(): Promise<void> {
		while (next < jobs.length) {
			const job = jobs[next++]!;
			const started = performance.now();
			const answer = await post(server.url, '/api/tickets', job, 0);
			latencies.push(performance.now() - started);
			if (!answer) {
				lost++;
				continue;
			}
			statuses.set(job.key!, [...(statuses.get(job.key!) ?? []), answer.status]);
			if (answer.status === 201) {
				const ids = created.get(job.key!) ?? new Set<number>();
				ids.add((JSON.parse(answer.body) as { id: number }).id);
				created.set(job.key!, ids);
			}
		}
	}
	const started = performance.now();
	await Promise.all(Array.from({ length: clients }, client));
	const seconds = (performance.now() - started) / 1000;
	await server.close();
	const { tickets: saved, keys: savedKeys } = await store.contents();
	await store.close();

	latencies.sort((a, b) => a - b);
	const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
	const counts = new Map<number, number>();
	for (const list of statuses.values())
		for (const status of list) counts.set(status, (counts.get(status) ?? 0) + 1);
	const byStatus = [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
	console.log(`${total} requests over ${keyCount} keys from ${clients} clients in ${seconds.toFixed(2)} s`);
	console.log(
		`  ${(total / seconds).toFixed(0)} requests/s, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`
	);
	console.log(`  answers: ${byStatus.join(', ')}${lost ? `, no answer: ${lost}` : ''}`);

	const problems: string[] = [];
	const withTicket = [...created.keys()];
	for (const [key, ids] of created)
		if (ids.size !== 1) problems.push(`${key}: its 201s named ${ids.size} tickets (${[...ids].join(', ')})`);
	const ids = [...created.values()].flatMap((set) => [...set]);
	if (new Set(ids).size !== ids.length) problems.push('two keys were answered with the same ticket');
	if (saved.length !== withTicket.length)
		problems.push(`${saved.length} tickets saved for ${withTicket.length} keys that got a 201`);
	const refusedOnly = [...statuses]
		.filter(([, list]) => list.every((s) => s >= 400 && s < 500))
		.map(([k]) => k);
	const savedFor = new Set(savedKeys.map((key) => key.key));
	for (const key of refusedOnly)
		if (savedFor.has(key) || created.has(key))
			problems.push(`${key} only got 4xx, yet has a ticket or a saved key`);
	if (lost) problems.push(`${lost} requests got no answer`);
	console.log(
		problems.length
			? `✘ ${problems.length} problems:\n${problems.map((p) => `  ${p}`).join('\n')}`
			: `✔ one ticket per key that got a 201 (${withTicket.length}), none for the ${refusedOnly.length} keys that only got 4xx`
	);
	failed = problems.length > 0;
} finally {
	await postgres.stop();
}
process.exitCode = failed ? 1 : 0;
