package emailoutbox

import (
	"errors"
	"fmt"

	. "workbook/core"
	"workbook/database"
	"workbook/handler"
	"workbook/outbox"
)

// SendInside is given, not yours to change: the anti-pattern this exercise pins. The handler is exercise
// 03's fix, and it sends the confirmation itself, inside its transaction, before the commit. Its tests
// pass: they show the damage.
func SendInside(db database.Connection, event Webhook, mail outbox.Mail) (Outcome, error) {
	if err := db.Begin(); err != nil {
		return Outcome{}, err
	}
	outcome, err := sendAndSave(db, event, mail)
	if err == nil {
		return outcome, nil
	}
	if db.InTransaction() {
		if rollbackErr := db.Rollback(); rollbackErr != nil {
			return Outcome{}, errors.Join(err, rollbackErr)
		}
	}
	var dbErr *database.Error
	if !errors.As(err, &dbErr) || dbErr.Code != database.UniqueViolation {
		return Outcome{}, err
	}
	// Another worker committed this event first: answer with its ticket.
	winner, findErr := db.FindReceipt(event)
	if findErr != nil || winner == nil {
		return Outcome{}, errors.Join(err, findErr)
	}
	return handler.Replay(*winner, event), nil
}

func sendAndSave(db database.Connection, event Webhook, mail outbox.Mail) (Outcome, error) {
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
	if err := db.SaveReceipt(Receipt{Event: event, TicketID: ticketID}); err != nil {
		return Outcome{}, err
	}
	// The email leaves now. If the commit below never happens, no rollback can call it back, and the
	// ticket it announces is gone with its burned id. Even a good key can't help: the retry's ticket is new.
	key := "ticket-confirmation/" + event.Tenant + "/" + fmt.Sprint(ticketID)
	if _, err := mail.Send(outbox.Email{Key: key, To: event.Tenant, TicketID: ticketID, Subject: event.Subject}); err != nil {
		return Outcome{}, err
	}
	if err := db.Commit(); err != nil {
		return Outcome{}, err
	}
	return Outcome{Kind: "created", TicketID: ticketID}, nil
}
