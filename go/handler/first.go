package handler

// TicketHandler is exercise 01's handler: every delivery creates a ticket. That is right for as long as
// every delivery is a new request. Its zero value is ready to use.
type TicketHandler struct {
	db Database
}

// Handle creates a ticket for the event, unless the worker dies before its commit.
func (h *TicketHandler) Handle(event Webhook, fault Fault) Outcome {
	if fault == BeforeCommit {
		return Crashed
	}
	ticketID := len(h.db.Tickets) + 1
	h.db.Tickets = append(h.db.Tickets, Ticket{ID: ticketID, Tenant: event.Tenant, Subject: event.Subject})
	// Saved. If the worker dies here, the sender never learns it worked, and will deliver again.
	if fault == AfterCommit {
		return Crashed
	}
	return Outcome{"created", ticketID}
}

// Snapshot returns a copy of the store.
func (h *TicketHandler) Snapshot() Database {
	return copyDatabase(h.db)
}
