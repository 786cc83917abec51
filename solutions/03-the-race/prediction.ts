import type { Prediction } from '#harness/race/prediction.ts';

// Both workers look before either saves, so both save a ticket; the unique key lets one receipt through,
// and B's insert fails. separate.ts catches nothing, so B's caller gets the unique violation.
export const prediction: Prediction = {
	tickets: 2,
	receipts: 1,
	secondWorker: 'unique-violation'
};
