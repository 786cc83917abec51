// Package race is the Go side of exercise 03: two workers get the same event at once. Separate looks for
// a receipt, saves the ticket and saves the receipt, each step committing on its own, and passes every
// test that delivers one event at a time; Atomic puts all three in one transaction and lets the receipts'
// unique key stop the second worker. Both run on package database, one scheduler step per operation.
package race

import (
	"errors"

	"workbook/database"
	"workbook/handler"
)

// Separate is the check before the commit: three steps, each committing on its own. Two workers can both
// find no receipt, both save a ticket, and only then does the unique key stop the second receipt.
func Separate(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
	seen, err := conn.FindReceipt(event)
	if err != nil {
		return handler.Outcome{}, err
	}
	if seen != nil {
		return handler.Replay(*seen, event), nil
	}
	ticketID, err := conn.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return handler.Outcome{}, err
	}
	if err := conn.SaveReceipt(handler.Receipt{Event: event, TicketID: ticketID}); err != nil {
		return handler.Outcome{}, err
	}
	return handler.Outcome{Kind: "created", TicketID: ticketID}, nil
}

// Atomic is the fix: the check, the ticket and the receipt in one transaction. A second worker's receipt
// insert waits for the first transaction and then hits the unique key; it rolls back (its ticket with it),
// reads the receipt the first one committed, and replays it.
func Atomic(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
	if err := conn.Begin(); err != nil {
		return handler.Outcome{}, err
	}
	outcome, err := checkAndSave(conn, event)
	if err == nil {
		return outcome, nil
	}
	// The transaction is aborted either way: roll back, so this worker's ticket goes too.
	if conn.InTransaction() {
		if rollbackErr := conn.Rollback(); rollbackErr != nil {
			return handler.Outcome{}, errors.Join(err, rollbackErr)
		}
	}
	var dbErr *database.Error
	if !errors.As(err, &dbErr) || dbErr.Code != database.UniqueViolation {
		return handler.Outcome{}, err
	}
	// The other worker committed its receipt; read it outside this worker's dead transaction.
	winner, findErr := conn.FindReceipt(event)
	if findErr != nil {
		return handler.Outcome{}, findErr
	}
	if winner == nil {
		return handler.Outcome{}, err
	}
	return handler.Replay(*winner, event), nil
}

// checkAndSave is the body of Atomic's transaction, up to and including its commit.
func checkAndSave(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
	seen, err := conn.FindReceipt(event)
	if err != nil {
		return handler.Outcome{}, err
	}
	if seen != nil {
		return handler.Replay(*seen, event), conn.Commit()
	}
	ticketID, err := conn.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return handler.Outcome{}, err
	}
	// If another open transaction saved this key, the insert waits for it to end.
	if err := conn.SaveReceipt(handler.Receipt{Event: event, TicketID: ticketID}); err != nil {
		return handler.Outcome{}, err
	}
	if err := conn.Commit(); err != nil {
		return handler.Outcome{}, err
	}
	return handler.Outcome{Kind: "created", TicketID: ticketID}, nil
}
