// Package therace is exercise 03 in Go: the race between two workers that get the same event at once.
// Read exercises/03-the-race/README.md, write your prediction in prediction.go and the fix below, and run
// go test ./exercises/03-the-race from go/.
package therace

import (
	"errors"

	. "workbook/core"
	"workbook/database"
	"workbook/handler" // handler.Replay(receipt, event): the receipt's ticket, or a conflict when the subject differs
)

// HandleAtomically is the fix: the receipt check, the ticket and the receipt in one transaction. When the
// receipt's insert hits the unique key, another worker got there first: roll back, read its receipt, and
// answer with it. SaveReceipt fails with a *database.Error whose Code is database.UniqueViolation when
// another worker committed the same key (after waiting, if its transaction was still open).
func HandleAtomically(db database.Connection, event Webhook) (Outcome, error) {
	if err := db.Begin(); err != nil {
		return Outcome{}, err
	}
	outcome, err := checkAndSave(db, event)
	if err == nil {
		return outcome, nil
	}
	// The transaction is aborted either way: roll back, so this worker's ticket goes too.
	if db.InTransaction() {
		if rollbackErr := db.Rollback(); rollbackErr != nil {
			return Outcome{}, errors.Join(err, rollbackErr)
		}
	}
	var dbErr *database.Error
	if !errors.As(err, &dbErr) || dbErr.Code != database.UniqueViolation {
		return Outcome{}, err
	}
	// The other worker committed its receipt; read it outside this worker's dead transaction.
	winner, findErr := db.FindReceipt(event)
	if findErr != nil {
		return Outcome{}, findErr
	}
	if winner == nil {
		return Outcome{}, err
	}
	return handler.Replay(*winner, event), nil
}

// checkAndSave is the body of the transaction, up to and including its commit.
func checkAndSave(db database.Connection, event Webhook) (Outcome, error) {
	seen, err := db.FindReceipt(event)
	if err != nil {
		return Outcome{}, err
	}
	if seen != nil {
		return handler.Replay(*seen, event), db.Commit()
	}
	ticketID, err := db.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return Outcome{}, err
	}
	// If another open transaction saved this key, the insert waits for it to end.
	if err := db.SaveReceipt(Receipt{Event: event, TicketID: ticketID}); err != nil {
		return Outcome{}, err
	}
	if err := db.Commit(); err != nil {
		return Outcome{}, err
	}
	return Outcome{Kind: "created", TicketID: ticketID}, nil
}
