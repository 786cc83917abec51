// The two servers the HTTP differential check sends its sequences to, behind one interface: the TypeScript
// solution's tickets route on harness/endpoint/server.ts, and the Go solution's on go/cmd/ticket-server, each
// on a PostgreSQL of its own.
//
//   const side = await typescriptSide(postgres.url);   // or await goSide(postgres.url, binary)
//   await side.reset('everything', defaultRetention);  // empty tables, the clock at the start
//   await side.plan(3, 'held');                        // the fault of the request sent with Workbook-Request: 3
//   await side.reached(3, answer);                     // held before its commit, or answered
//   await side.release(3);
//   await side.advance(60_000);                        // the routes' clock, moved forward
//   await side.end();                                  // { tickets, keys }: what its tables hold
//   await side.close();
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Ticket } from '#harness/core/model.ts';
import type { EndpointOptions, Remember, Route } from '#harness/endpoint/contract.ts';
import { Plan, type Fault } from '#harness/endpoint/faults.ts';
import { PostgresStore } from '#harness/endpoint/postgres-store.ts';
import { scheduleStart } from '#harness/endpoint/schedules.ts';
import { serve } from '#harness/endpoint/server.ts';
import { goDir } from '../../lib/go-test.ts';
import { run } from '../../lib/run.ts';
import { tickets } from '../../solutions/06-ticket-endpoint/endpoint.ts';

export type SideEnd = { tickets: Ticket[]; keys: { client: string; key: string; status: number }[] };
export type SideName = 'TypeScript' | 'Go';

export interface Side {
	name: SideName;
	url: string;
	reset(remember: Remember, retentionMs: number): Promise<void>;
	plan(request: number, fault: Fault): Promise<void>;
	reached(request: number, answered: Promise<unknown>): Promise<void>;
	release(request: number): Promise<void>;
	advance(ms: number): Promise<void>;
	end(): Promise<SideEnd>;
	close(): Promise<void>;
}

const limitMs = 10_000;

function within<T>(promise: Promise<T>, why: string): Promise<T> {
	let timer: NodeJS.Timeout;
	const limit = new Promise<never>(
		(_, reject) => (timer = setTimeout(() => reject(new Error(why)), limitMs))
	);
	return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// The TypeScript solution's route (or, for the check's own test, a route made another way).
export async function typescriptSide(
	postgresUrl: string,
	route: (options: EndpointOptions) => Route = tickets
): Promise<Side> {
	let store: PostgresStore | null = null;
	let now = scheduleStart;
	let current: Route = async () => new Response('reset first', { status: 500 });
	const server = await serve({ '/api/tickets': (request) => current(request) });
	const planOf = (request: number) => server.plans.get(String(request)) ?? new Plan();
	return {
		name: 'TypeScript',
		url: server.url,
		async reset(remember, retention) {
			for (const plan of server.plans.values()) plan.release();
			server.plans.clear();
			await store?.close();
			store = await PostgresStore.open(postgresUrl);
			now = scheduleStart;
			current = route({ store, remember, retention, now: () => new Date(now), tenant: 'acme' });
		},
		async plan(request, fault) {
			server.plans.set(String(request), new Plan(fault));
		},
		async reached(request, answered) {
			await within(
				Promise.race([planOf(request).reachedHold, answered]),
				`request ${request} neither reached its commit nor answered within ${limitMs} ms`
			);
		},
		async release(request) {
			planOf(request).release();
		},
		async advance(ms) {
			now += ms;
		},
		async end() {
			const { tickets, keys } = await store!.contents();
			return { tickets, keys: keys.map(({ client, key, status }) => ({ client, key, status })) };
		},
		async close() {
			await server.close();
			await store?.close();
		}
	};
}

// go build, once per check: the command's binary in the folder given.
export async function buildGoServer(folder: string): Promise<string> {
	const binary = `${folder}/ticket-server`;
	const built = await run('go', ['build', '-o', binary, './cmd/ticket-server'], {
		cwd: goDir,
		timeoutMs: 300_000
	});
	if (built.code !== 0) throw new Error(`go build ./cmd/ticket-server failed:\n${built.output}`);
	return binary;
}

// The Go solution's route (go/solutions/06-ticket-endpoint), in its own process, driven by a line of JSON
// per command (go/cmd/ticket-server).
export async function goSide(postgresUrl: string, binary: string): Promise<Side> {
	const child = spawn(binary, [postgresUrl], { cwd: goDir, stdio: ['pipe', 'pipe', 'inherit'] });
	const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
	const next = async (what: string) => {
		const line = await within(lines.next(), `go/cmd/ticket-server did not answer ${what}`);
		if (line.done) throw new Error(`go/cmd/ticket-server ended before answering ${what}`);
		const answer = JSON.parse(line.value) as { error?: string };
		if (answer.error) throw new Error(`go/cmd/ticket-server, asked ${what}: ${answer.error}`);
		return answer;
	};
	const { url } = (await next('where it listens')) as { url: string };
	// One command at a time: each waits for the answer to the one before.
	let queue: Promise<unknown> = Promise.resolve();
	const ask = (command: Record<string, unknown>) => {
		const answer = queue.then(() => {
			child.stdin.write(JSON.stringify(command) + '\n');
			return next(JSON.stringify(command));
		});
		queue = answer.catch(() => undefined);
		return answer;
	};
	return {
		name: 'Go',
		url,
		reset: async (remember, retentionMs) => void (await ask({ do: 'reset', remember, retentionMs })),
		plan: async (request, fault) => void (await ask({ do: 'plan', request, fault })),
		reached: async (request) => void (await ask({ do: 'reached', request })),
		release: async (request) => void (await ask({ do: 'release', request })),
		advance: async (ms) => void (await ask({ do: 'advance', ms })),
		end: async () => (await ask({ do: 'end' })) as SideEnd,
		async close() {
			child.stdin.end();
			await within(
				new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
				'go/cmd/ticket-server did not stop'
			).catch(() => child.kill());
		}
	};
}
