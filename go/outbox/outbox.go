package outbox

import (
	"errors"
	"strconv"

	"workbook/database"
	"workbook/handler"
)

// EmailKey is the email's own idempotency key, from the stored ticket: the kind of email, the tenant and
// the ticket id. Never from the event id (two tenants can both send evt-42) or the subject (two customers
// can write the same words). Only the tenant is free text, and it sits between the kind and the id,
// neither of which can hold a "/", so no two keys collide.
func EmailKey(tenant string, ticketID int, kind string) string {
	return kind + "/" + tenant + "/" + strconv.Itoa(ticketID)
}

func isUniqueViolation(err error) bool {
	var dbErr *database.Error
	return errors.As(err, &dbErr) && dbErr.Code == database.UniqueViolation
}

// replayFromReceipt answers a worker that lost the race on the receipts' unique key: after its rollback,
// the receipt the other worker committed has the ticket.
func replayFromReceipt(conn database.Connection, event handler.Webhook, cause error) (handler.Outcome, error) {
	if conn.InTransaction() {
		if err := conn.Rollback(); err != nil {
			return handler.Outcome{}, err
		}
	}
	if !isUniqueViolation(cause) {
		return handler.Outcome{}, cause
	}
	receipt, err := conn.FindReceipt(event)
	if err != nil {
		return handler.Outcome{}, err
	}
	if receipt == nil {
		return handler.Outcome{}, cause
	}
	return handler.Replay(*receipt, event), nil
}

// Handle is exercise 03's fix with one more row in the same transaction: the outbox row saying what to
// send, under the email's own key. Nothing leaves before the commit.
func Handle(conn database.Connection, event handler.Webhook) (handler.Outcome, error) {
	if err := conn.Begin(); err != nil {
		return handler.Outcome{}, err
	}
	seen, err := conn.FindReceipt(event)
	if err != nil {
		return replayFromReceipt(conn, event, err)
	}
	if seen != nil {
		return handler.Replay(*seen, event), conn.Rollback()
	}
	ticketID, err := conn.SaveTicket(event.Tenant, event.Subject)
	if err == nil {
		err = conn.SaveReceipt(handler.Receipt{Event: event, TicketID: ticketID})
	}
	if err == nil {
		_, err = conn.SaveOutbox(database.OutboxDraft{
			Key:      EmailKey(event.Tenant, ticketID, "ticket-confirmation"),
			Tenant:   event.Tenant,
			TicketID: ticketID,
			To:       event.Tenant,
			Subject:  event.Subject,
		})
	}
	if err == nil {
		err = conn.Commit()
	}
	if err != nil {
		return replayFromReceipt(conn, event, err)
	}
	return handler.Outcome{Kind: "created", TicketID: ticketID}, nil
}

// Relay runs after the commit: it sends each pending row with its key, then marks it sent. A crash
// between the two sends it again on the next run, and the provider recognises the key; marking first
// would lose the email instead. A row the provider could not take stays pending for the next run.
func Relay(conn database.Connection, mail Mail) error {
	rows, err := conn.PendingOutbox()
	if err != nil {
		return err
	}
	for _, row := range rows {
		_, err := mail.Send(Email{Key: row.Key, To: row.To, TicketID: row.TicketID, Subject: row.Subject})
		if errors.Is(err, ErrProviderDown) || errors.Is(err, ErrKeyReused) {
			continue
		}
		if err != nil {
			return err
		}
		if _, err := conn.MarkSent(row.ID); err != nil {
			return err
		}
	}
	return nil
}

// SendInside is the anti-pattern the exercise pins: exercise 03's fix, sending the confirmation itself
// inside its transaction, before the commit. If the commit never happens, no rollback calls the email
// back, and the ticket it announces is gone with its used-up id.
func SendInside(conn database.Connection, event handler.Webhook, mail Mail) (handler.Outcome, error) {
	if err := conn.Begin(); err != nil {
		return handler.Outcome{}, err
	}
	seen, err := conn.FindReceipt(event)
	if err != nil {
		return replayFromReceipt(conn, event, err)
	}
	if seen != nil {
		return handler.Replay(*seen, event), conn.Rollback()
	}
	ticketID, err := conn.SaveTicket(event.Tenant, event.Subject)
	if err == nil {
		err = conn.SaveReceipt(handler.Receipt{Event: event, TicketID: ticketID})
	}
	if err == nil {
		_, err = mail.Send(Email{Key: EmailKey(event.Tenant, ticketID, "ticket-confirmation"), To: event.Tenant, TicketID: ticketID, Subject: event.Subject})
	}
	if err == nil {
		err = conn.Commit()
	}
	if err != nil {
		return replayFromReceipt(conn, event, err)
	}
	return handler.Outcome{Kind: "created", TicketID: ticketID}, nil
}
