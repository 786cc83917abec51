// Package emailoutbox is exercise 05 in Go: the confirmation email a new ticket owes its tenant, saved as an
// outbox row in the ticket's own commit and sent after it by a relay. Read exercises/05-email-outbox/README.md,
// write the three below, and run go test ./exercises/05-email-outbox from go/.
package emailoutbox

import (
	"errors"
	"strconv"

	. "workbook/core"
	"workbook/database"
	"workbook/outbox"
	"workbook/race/atomic"
)

// EmailKey is the email's own idempotency key, from the stored ticket: its tenant, its id and the kind of
// email ("ticket-confirmation"). Never from the event id (two tenants can both send evt-42) or the subject
// (two customers can write the same words). Only the tenant is free text, and it sits between the kind and
// the id, neither of which can hold a "/", so no two keys collide.
func EmailKey(tenant string, ticketID int, kind string) string {
	return kind + "/" + tenant + "/" + strconv.Itoa(ticketID)
}

// HandleWithOutbox is exercise 03's fix, and in its transaction, before the commit, the outbox row: what to
// send, under the email's own key. The ticket, its receipt and its row commit together or vanish together;
// a repeat or a conflict writes no row. Nothing leaves before the commit.
func HandleWithOutbox(db database.Connection, event Webhook) (Outcome, error) {
	return atomic.HandleAtomically(db, event, func(ticketID int) error {
		_, err := db.SaveOutbox(database.OutboxDraft{Key: EmailKey(event.Tenant, ticketID, "ticket-confirmation"), Tenant: event.Tenant, TicketID: ticketID, To: event.Tenant, Subject: event.Subject})
		return err
	})
}

// Relay runs after the commit: it sends each pending row with its key, then marks it sent. A crash between
// the two sends it again on the next run, and the provider recognises the key; marking first would lose the
// email instead. A row the provider could not take stays pending for the next run.
func Relay(db database.Connection, mail outbox.Mail) error {
	rows, err := db.PendingOutbox()
	if err != nil {
		return err
	}
	for _, row := range rows {
		_, err := mail.Send(outbox.Email{Key: row.Key, To: row.To, TicketID: row.TicketID, Subject: row.Subject})
		if errors.Is(err, outbox.ErrProviderDown) || errors.Is(err, outbox.ErrKeyReused) {
			continue
		}
		if err != nil {
			return err
		}
		if _, err := db.MarkSent(row.ID); err != nil {
			return err
		}
	}
	return nil
}
