package therace

import (
	. "workbook/core"
	"workbook/race"
)

// Predict is your guess, before you run anything. Two workers get acme/helpdesk/evt-42 at the same moment
// and run HandleSeparately (separate.go), one database operation each in turn: A looks for a receipt, B
// looks for a receipt, A saves its ticket, B saves its ticket, A saves its receipt, B saves its receipt.
// (The schedule is schedules/race/two-workers-alternate.json; don't read its "expect" yet.)
//
// Return how many tickets are in the database at the end, how many receipts, and what B, the second worker,
// ends with: "created", "replayed", "conflict" or "unique-violation".
func Predict() race.Prediction {
	panic(Todo("Predict", "03-the-race/prediction.go"))
}
