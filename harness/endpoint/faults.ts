// What the harness does to one request, out of sight of the endpoint: the schedule's fault for it.
//
//   const plan = new Plan('held');
//   await plan.run(() => route(request));   // the store reads the plan through AsyncLocalStorage
//   await plan.reachedHold;                  // the request is inside its transaction, just before COMMIT
//   plan.release();                          // let it commit
//
// 'before-commit': the worker dies at its first commit that would save something: the transaction rolls
// back, every later store call throws WorkerDied, and the server drops the connection without an answer.
// 'step-fails': the first ticket insert throws StepFailed, as a failing step would; the endpoint answers.
// 'held': the first commit that would save something waits until release(), keeping its locks.
// 'held-before-writes': the request waits just before its first write instead (the client journeys use it: two
// forms' requests in flight at once, neither yet holding the ticket numbers' lock).
// 'after-commit': the endpoint runs to the end and the server drops its answer (server.ts reads it).
//
// Turns: when a held request is let go, the player makes every other request in flight wait its turn
// (waitTurn), so the one let go runs first and two requests never race on the machine's timing. A request
// waiting its turn takes no step on the database (the store asks turn() before each statement, commit and
// rollback) until the player gives it back (yourTurn), once the one let go has answered or waits on a lock.
import { AsyncLocalStorage } from 'node:async_hooks';

export type Fault = 'none' | 'before-commit' | 'after-commit' | 'step-fails' | 'held' | 'held-before-writes';

class WorkerDied extends Error {
	override name = 'WorkerDied';
	constructor() {
		super('the worker died (the schedule crashed it before its commit)');
	}
}
class StepFailed extends Error {
	override name = 'StepFailed';
	constructor() {
		super('saving the ticket failed (the schedule made this step fail)');
	}
}

const current = new AsyncLocalStorage<Plan>();

export class Plan {
	crashed = false;
	private used = false;
	private releaseHold!: () => void;
	private holdReached!: () => void;
	readonly released = new Promise<void>((resolve) => (this.releaseHold = resolve));
	readonly reachedHold = new Promise<void>((resolve) => (this.holdReached = resolve));

	private turnGiven: Promise<void> | null = null;
	private giveTurn = () => {};
	// True while the request sits at its turn: it holds whatever locks it took, and waits for none.
	atItsTurn = false;

	constructor(readonly fault: Fault = 'none') {}

	// From now on, the request takes no step on the database until yourTurn().
	waitTurn(): void {
		this.turnGiven ??= new Promise<void>((resolve) => (this.giveTurn = resolve));
	}

	yourTurn(): void {
		this.turnGiven = null;
		this.giveTurn();
	}

	// Called before every statement, commit and rollback: undefined (go on) unless the request waits its turn.
	turn(): Promise<void> | undefined {
		const given = this.turnGiven;
		if (given === null) return undefined;
		this.atItsTurn = true;
		return given.then(() => {
			this.atItsTurn = false;
		});
	}

	run<T>(work: () => Promise<T>): Promise<T> {
		return current.run(this, work);
	}

	release(): void {
		this.releaseHold();
	}

	// Throws once the worker is dead: a dead worker does nothing more.
	alive(): void {
		if (this.crashed) throw new WorkerDied();
	}

	// Called just before a COMMIT that would save something.
	async beforeCommit(): Promise<void> {
		this.alive();
		if (this.used) return;
		if (this.fault === 'before-commit') {
			this.used = this.crashed = true;
			throw new WorkerDied();
		}
		if (this.fault === 'held') await this.hold();
	}

	// Called before every write.
	async beforeWrite(): Promise<void> {
		this.alive();
		if (this.fault === 'held-before-writes' && !this.used) await this.hold();
	}

	private async hold(): Promise<void> {
		this.used = true;
		this.holdReached();
		await this.released;
		this.alive();
	}

	// Called before the ticket's insert.
	beforeTicket(): void {
		this.alive();
		if (this.fault === 'step-fails' && !this.used) {
			this.used = true;
			throw new StepFailed();
		}
	}
}

const noPlan = new Plan();
export function planNow(): Plan {
	return current.getStore() ?? noPlan;
}
