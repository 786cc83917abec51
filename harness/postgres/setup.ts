// Vitest's setup file for the postgres projects: each test file gets a database of its own on the run's server,
// and every schedule it plays starts on empty tables (open-database.ts). Dropped when the file is done.
import { afterAll, beforeAll, inject } from 'vitest';
import { playOn } from '../database/open-database.ts';
import { PostgresPlace } from './place.ts';

let place: PostgresPlace | undefined;

beforeAll(async () => {
	place = await PostgresPlace.create(inject('postgresUrl'));
	const here = place;
	playOn(() => here.fresh());
});

afterAll(async () => {
	await place?.drop();
});
