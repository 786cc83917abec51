// What every worker connection keeps besides its data: the in-memory MemoryConnection (database.ts) and
// PostgresConnection (postgres/connection.ts) both extend it, so they count, refuse and speak alike.
//
//   class MyConnection extends ConnectionBookkeeping<MyDatabase> implements WorkerConnection { … }
//   await this.turn({ name, writes, commits });  // refuses a closed connection, then waits for the scheduler
//   this.finished(name, error, result);           // done and heard: what the worker did and was told
//   throw this.misuse('begin: …');                // a DatabaseError 'misuse' that names the worker
//   this.say(`saves ticket #3${this.where()}.`);  // a trace line that starts with the worker's name
//   this.sayCommitted(listed(writes));            // the sentences of commit, rollback and an aborted commit
//
// `closed` is set by the subclass's close(); every later call throws misuse. `where()` tells whether a write
// stays in the open transaction or commits at once. listed() and gone() put writes into words for both.
import { DatabaseError, TransactionAborted } from './errors.ts';
import type { Gate, Operation } from './database.ts';

// "ticket #2", "ticket #2 and receipt …", "ticket #2, receipt … and outbox row #1".
export const listed = (parts: string[]): string =>
	parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');

// "ticket #2 is gone", "ticket #2 and receipt … are gone".
const gone = (writes: string): string => `${writes} ${writes.includes(' and ') ? 'are' : 'is'} gone`;

// The sentence for a worker whose process is gone, with or without a transaction to roll back.
export const droppedSentence = (why: string, tx: boolean, writes: string): string =>
	tx ? `${why} Its transaction rolls back${writes ? `: ${gone(writes)}` : ''}.` : why;

export abstract class ConnectionBookkeeping<Db extends { say(worker: string, text: string): void }> {
	// What this worker has done and what it was told, for crash points and the explorer's state.
	readonly done: string[] = [];
	readonly heard: string[] = [];
	protected closed = false;

	constructor(
		protected readonly db: Db,
		readonly worker: string,
		private readonly gate: Gate
	) {}

	abstract get inTransaction(): boolean;

	// A step outside the database (calling a mail provider, say): the scheduler may run others first, and a
	// crash can strike right after it, but no transaction rolls it back. No statement reaches a server.
	async outside<T>(name: string, act: () => T | Promise<T>): Promise<T> {
		this.usable(name);
		await this.turn({ name, writes: false, commits: false });
		try {
			return await act();
		} finally {
			this.finished(name);
		}
	}

	protected async turn(operation: Operation): Promise<void> {
		this.usable(operation.name);
		await this.gate.turn(this.worker, operation);
	}

	protected usable(what: string): void {
		if (this.closed) throw this.misuse(`${what}: this connection is closed (the worker has finished)`);
	}

	protected finished(name: string, error?: unknown, result?: unknown): void {
		this.done.push(name);
		const heard =
			error instanceof DatabaseError ? error.code : error ? 'error' : JSON.stringify(result ?? null);
		this.heard.push(`${name}:${heard}`);
	}

	protected misuse(message: string): DatabaseError {
		return new DatabaseError('misuse', `${this.worker}: ${message}`);
	}

	protected say(text: string): void {
		this.db.say(this.worker, `${this.worker} ${text}`);
	}

	protected where(): string {
		return this.inTransaction ? ' in its transaction' : ', committed at once';
	}

	protected sayCommitted(writes: string): void {
		this.say(writes ? `commits: ${writes} can now be seen by everyone.` : 'commits (it wrote nothing).');
	}

	protected sayRolledBack(writes: string): void {
		this.say(writes ? `rolls back: ${gone(writes)}.` : 'rolls back (it wrote nothing).');
	}

	protected sayAborted(name: string): void {
		this.say(`tries to ${name.replace('-', ' ')}, but an earlier error aborted its transaction.`);
	}

	// PostgreSQL answers COMMIT of an aborted transaction with a rollback; both connections throw instead.
	protected abortedCommit(): TransactionAborted {
		this.say('tries to commit, but an earlier error aborted its transaction: it rolls back.');
		return new TransactionAborted();
	}
}
