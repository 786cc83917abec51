import type { Prediction } from '#harness/race/prediction.ts';

// Guess before you run anything. Two workers get acme/helpdesk/evt-42 at the same moment and run
// separate.ts, one database operation each in turn: A looks for a receipt, B looks for a receipt,
// A saves its ticket, B saves its ticket, A saves its receipt, B saves its receipt.
// (The schedule is schedules/race/two-workers-alternate.json; don't read its "expect" yet.)
export const prediction: Prediction = {
	// How many tickets are in the database at the end?
	tickets: undefined,
	// How many receipts?
	receipts: undefined,
	// What does B, the second worker, end with: 'created', 'replayed', 'conflict', or 'unique-violation'?
	secondWorker: undefined
};
