// The endpoint's store, opened on PostgreSQL only when a route first uses it.
//
//   const store = storeFor(postgresUrl);     // a URL: opened (and emptied) now; a function: on first use
//   await store.contents();                  // nothing yet, without a server, when no route used it
//
// A route that is still a stub, or a client (04's submissions) that stops before it sends, never touches the
// store: a test run of 06 as shipped then starts no PostgreSQL at all. Everything else is PostgresStore's.
import type { Store, Transaction } from './contract.ts';
import type { PostgresStore, StoreContents } from './postgres-store.ts';

// Loaded with the first store: node-postgres too is then loaded only by a run that needs a server.
const opened = (url: string) => import('./postgres-store.ts').then(({ emptyStore }) => emptyStore(url));

export type PlayStore = Store & {
	contents(): Promise<StoreContents>;
	waitingOnLocks(): Promise<number>;
};

class StoreOnFirstUse implements PlayStore {
	private opened: Promise<PostgresStore> | null = null;
	constructor(private readonly url: () => Promise<string>) {}

	private open(): Promise<PostgresStore> {
		return (this.opened ??= this.url().then(opened));
	}
	async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
		return (await this.open()).transaction(work);
	}
	async contents(): Promise<StoreContents> {
		return this.opened ? (await this.opened).contents() : { tickets: [], keys: [], receipts: [] };
	}
	async waitingOnLocks(): Promise<number> {
		return this.opened ? (await this.opened).waitingOnLocks() : 0;
	}
}

export type PostgresUrl = string | (() => Promise<string>);

export async function storeFor(url: PostgresUrl): Promise<PlayStore> {
	return typeof url === 'string' ? opened(url) : new StoreOnFirstUse(url);
}
