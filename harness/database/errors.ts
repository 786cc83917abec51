// The errors a Connection throws, the same from the in-memory database and from PostgreSQL.
//
//   try { await conn.saveReceipt(receipt); }
//   catch (error) { if (error instanceof UniqueViolation) …; }   // or: error.code === 'unique-violation'
//
// Every one is a DatabaseError with a code a schedule can name: 'unique-violation' (a key is taken),
// 'transaction-aborted' (an earlier error spoiled the open transaction: roll back), 'deadlock' (a wait would
// close a cycle) and 'misuse' (the worker called the connection in a way no database allows).
// database.ts exports them all too, so learner code imports them from there.
export type ErrorCode = 'unique-violation' | 'transaction-aborted' | 'deadlock' | 'misuse';

export class DatabaseError extends Error {
	override name = 'DatabaseError';
	constructor(
		readonly code: ErrorCode,
		message: string
	) {
		super(message);
	}
}
export class UniqueViolation extends DatabaseError {
	override name = 'UniqueViolation';
	constructor(message: string) {
		super('unique-violation', message);
	}
}
export class TransactionAborted extends DatabaseError {
	override name = 'TransactionAborted';
	constructor() {
		super(
			'transaction-aborted',
			'current transaction is aborted, commands ignored until end of transaction block'
		);
	}
}
export class DeadlockDetected extends DatabaseError {
	override name = 'DeadlockDetected';
	constructor(message: string) {
		super('deadlock', message);
	}
}
