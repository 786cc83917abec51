package therace

import (
	. "workbook/core"
	"workbook/database"
	"workbook/handler"
)

// HandleSeparately is given, not yours to change: the receipt check written as three steps, each committing
// on its own. One delivery at a time it does everything the lesson asks. Two at once is another story: see
// exercises/03-the-race/README.md.
func HandleSeparately(db database.Connection, event Webhook) (Outcome, error) {
	// 1. Look for a receipt. This read commits on its own: it promises nothing about a moment from now.
	seen, err := db.FindReceipt(event)
	if err != nil {
		return Outcome{}, err
	}
	if seen != nil {
		return handler.Replay(*seen, event), nil
	}
	// 2. Save the ticket, committed at once.
	ticketID, err := db.SaveTicket(event.Tenant, event.Subject)
	if err != nil {
		return Outcome{}, err
	}
	// 3. Record the receipt, committed at once. The unique key on (tenant, source, event id) is the only guard.
	if err := db.SaveReceipt(Receipt{Event: event, TicketID: ticketID}); err != nil {
		return Outcome{}, err
	}
	return Outcome{Kind: "created", TicketID: ticketID}, nil
}
