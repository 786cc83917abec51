package emailoutbox

import (
	"strconv"

	. "workbook/core"
	"workbook/database"
	"workbook/outbox"
	"workbook/race/atomic"
)

// SendInside is given, not yours to change: the anti-pattern this exercise pins. The handler is exercise
// 03's fix (atomic.HandleAtomically), and it sends the confirmation itself, inside its transaction, before
// the commit. Its tests pass: they show the damage.
func SendInside(db database.Connection, event Webhook, mail outbox.Mail) (Outcome, error) {
	return atomic.HandleAtomically(db, event, func(ticketID int) error {
		// The email leaves now. If the commit after it never happens, no rollback can call it back, and the
		// ticket it announces is gone with its burned id. Even a good key can't help: the retry's ticket is new.
		key := "ticket-confirmation/" + event.Tenant + "/" + strconv.Itoa(ticketID)
		_, err := mail.Send(outbox.Email{Key: key, To: event.Tenant, TicketID: ticketID, Subject: event.Subject})
		return err
	})
}
