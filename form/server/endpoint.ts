// The endpoint the form posts to: exercise 06's on PostgreSQL, or the harness's in-memory stand-in.
import type { Backend } from './backend.ts';
import { startFakeBackend } from './fake-endpoint.ts';
import { startPostgresBackend, type EndpointChoice } from './postgres-endpoint.ts';

export type { EndpointChoice };
export type EndpointOption = EndpointChoice | 'memory';

export function startBackend(choice: EndpointOption): Promise<Backend> {
	return choice === 'memory' ? startFakeBackend() : startPostgresBackend(choice);
}
