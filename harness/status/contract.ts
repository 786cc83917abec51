// Exercise 07's contract as a small reference model: what a right setStatus and addComment answer, and what the
// store holds after, for any changes delivered one at a time to any tickets. The made-up schedules are
// judged against it, answer by answer and in the end state, as the shipped ones are judged against their JSON.
//
//   const model = new StatusContract([{ id: 1, status: 'open', version: 1 }]);
//   model.deliver({ kind: 'add-comment', changeId: 'chg-1', ticketId: 1, text: 'Hi' }, 'after-commit');
//                                   // { kind: 'crashed' }: committed, and nobody heard comment 1
//   model.deliver(sameChangeAgain); // { kind: 'commented', comment: 1 }: the receipt's answer
//   model.versionOf(1);             // 1: a comment never moves the version
//   model.store();                  // { tickets, receipts }, shaped as ChangeHandler's snapshot()
//
// The contract, told per ticket: a status has a version (its status changes, counted) and the id of the change
// that made it; a change that made it, sent again, is answered as now; one decided on an older version is
// stale; another status moves the version; the same status changes nothing. Comments are numbered per ticket,
// from 1, and a change's receipt (by its id, whatever its text) answers every repeat with its first answer.
// It is written apart from the solution on purpose: a per-ticket record and a receipt book, no staged copy.
import type { Fault } from '../core/model.ts';
import type { Answer, Change, ChangeReceipt, StartTicket, Status, StatusStore } from './model.ts';
import type { ChangeDelivery, StatusExpectation } from './schedules.ts';

type Record = { status: Status; version: number; madeBy: string | null; comments: string[] };

export class StatusContract {
	private readonly order: number[];
	private records = new Map<number, Record>();
	private receipts = new Map<string, Answer>();

	constructor(start: readonly StartTicket[]) {
		this.order = start.map((ticket) => ticket.id);
		for (const t of start) this.records.set(t.id, { ...t, madeBy: null, comments: [] });
	}

	// What the sender hears; a worker that dies before its commit leaves nothing, after it leaves everything.
	deliver(change: Change, fault: Fault = 'none'): Answer {
		const records = new Map([...this.records].map(([id, r]) => [id, { ...r, comments: [...r.comments] }]));
		const receipts = new Map(this.receipts);
		const answer = decide(records, receipts, change);
		if (fault === 'before-commit') return { kind: 'crashed' };
		this.records = records;
		this.receipts = receipts;
		return fault === 'after-commit' ? { kind: 'crashed' } : answer;
	}

	versionOf(ticketId: number): number {
		return this.record(this.records, ticketId).version;
	}

	store(): StatusStore {
		return {
			tickets: this.order.map((id) => {
				const { status, version, madeBy, comments } = this.record(this.records, id);
				return { id, status, version, lastChange: madeBy, comments: [...comments] };
			}),
			receipts: [...this.receipts].map(([changeId, answer]): ChangeReceipt => ({ changeId, answer }))
		};
	}

	private record(records: Map<number, Record>, id: number): Record {
		const found = records.get(id);
		if (!found) throw new Error(`the model has no ticket #${id}`);
		return found;
	}
}

// The versioned expectation of a schedule: what the contract answers to each delivery, and stores after the last.
export function expectedByContract(
	start: readonly StartTicket[],
	deliveries: readonly ChangeDelivery[]
): StatusExpectation {
	const contract = new StatusContract(start);
	const answers = deliveries.map((d) => contract.deliver(d.change, d.fault));
	return { answers, ...contract.store() };
}

function decide(records: Map<number, Record>, receipts: Map<string, Answer>, change: Change): Answer {
	const ticket = records.get(change.ticketId);
	if (!ticket) throw new Error(`the model has no ticket #${change.ticketId}`);
	if (change.kind === 'add-comment') {
		const first = receipts.get(change.changeId);
		if (first) return first;
		ticket.comments.push(change.text);
		const answer: Answer = { kind: 'commented', comment: ticket.comments.length };
		receipts.set(change.changeId, answer);
		return answer;
	}
	const now: Answer = { kind: 'set', status: ticket.status, version: ticket.version };
	if (ticket.madeBy === change.changeId) return now;
	if (change.decidedOn < ticket.version) return { kind: 'stale', version: ticket.version };
	if (ticket.status === change.status) return now;
	ticket.status = change.status;
	ticket.version += 1;
	ticket.madeBy = change.changeId;
	return { kind: 'set', status: ticket.status, version: ticket.version };
}
