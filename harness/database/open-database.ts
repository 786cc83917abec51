// Which database the schedule players open: the in-memory model, unless the run chose another. The postgres
// Vitest projects choose PostgreSQL in their setup file (postgres/setup.ts); nothing else changes.
//
//   const db = await openDatabase();          // a fresh, empty database for one schedule
//   playOn(() => place.fresh());              // from now on, this process plays every schedule there
//
// The walks over every interleaving and the properties (race-checks.ts, outbox-property.ts) always use the
// model: they need its stateKey() and run thousands of times. postgres/differential.test.ts checks that the
// model and PostgreSQL agree.
import { InMemoryDatabase, type SharedDatabase } from './database.ts';

export type Opener = () => SharedDatabase | Promise<SharedDatabase>;

let opener: Opener = () => new InMemoryDatabase();

export function playOn(open: Opener): void {
	opener = open;
}

export async function openDatabase(): Promise<SharedDatabase> {
	return opener();
}
