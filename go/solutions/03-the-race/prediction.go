package therace

import "workbook/race"

// Predict is your guess, before you run anything. Two workers get acme/helpdesk/evt-42 at the same moment
// and run HandleSeparately (separate.go), one database operation each in turn: A looks for a receipt, B
// looks for a receipt, A saves its ticket, B saves its ticket, A saves its receipt, B saves its receipt.
// (The schedule is schedules/race/two-workers-alternate.json; don't read its "expect" yet.)
//
// Both workers look before either saves, so both save a ticket; the unique key lets one receipt through, and
// B's insert fails. HandleSeparately returns every error, so B's caller gets the unique violation.
func Predict() race.Prediction {
	return race.Prediction{Tickets: 2, Receipts: 1, SecondWorker: "unique-violation"}
}
