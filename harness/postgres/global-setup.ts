// Vitest's global setup for the postgres projects: one server for the whole run, its URL handed to every test
// file (inject('postgresUrl')), stopped at the end, on a failed test and on Ctrl-C too. The end checks that
// no process of the server is left.
import type { TestProject } from 'vitest/node';
import { prepareTemplate } from './place.ts';
import { familyOf, leftRunning } from './processes.ts';
import { startPostgres } from './server.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		postgresUrl: string;
	}
}

export default async function setup(project: TestProject) {
	const server = await startPostgres();
	const family = familyOf(server.pid);
	try {
		await prepareTemplate(server.url);
	} catch (error) {
		await server.stop();
		throw error;
	}
	project.provide('postgresUrl', server.url);
	return async () => {
		await server.stop();
		const left = leftRunning(family);
		if (left.length) throw new Error(`PostgreSQL processes still running after the run: ${left.join(', ')}`);
	};
}
