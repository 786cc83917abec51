// Package sameevent is exercise 02 in Go: the identity of a delivery, what a repeat gets back, and a handler
// that keeps a receipt in the same commit as its ticket. Read exercises/02-same-event/README.md, write the
// four below, and run go test ./exercises/02-same-event from go/.
package sameevent

import . "workbook/core"

// SameEvent is a delivery's identity: the same event, from the same source, for the same tenant.
func SameEvent(a, b Webhook) bool {
	return a.Tenant == b.Tenant && a.Source == b.Source && a.EventID == b.EventID
}

// Replay hands back the original ticket, unless the same key now carries a different request.
func Replay(receipt Receipt, event Webhook) Outcome {
	if receipt.Event.Subject != event.Subject {
		return Outcome{"conflict", 0}
	}
	return Outcome{"replayed", receipt.TicketID}
}

// ReceiptHandler checks for a receipt, then saves the ticket and its receipt in one commit. Its zero value
// is ready to use.
type ReceiptHandler struct {
	db Database
}

// Handle answers a repeat from its receipt, and otherwise creates the ticket and the receipt together.
func (h *ReceiptHandler) Handle(event Webhook, fault Fault) Outcome {
	// A staged copy stands in for a transaction: nothing is visible until the one assignment below.
	staged := CopyDatabase(h.db)
	outcome, seen := h.replay(event)
	if !seen {
		ticketID := len(staged.Tickets) + 1
		staged.Tickets = append(staged.Tickets, Ticket{ID: ticketID, Tenant: event.Tenant, Subject: event.Subject})
		staged.Receipts = append(staged.Receipts, Receipt{Event: event, TicketID: ticketID})
		outcome = Outcome{"created", ticketID}
	}
	if fault == BeforeCommit {
		return Crashed
	}
	h.db = staged
	if fault == AfterCommit {
		return Crashed
	}
	return outcome
}

// replay finds the event's receipt, if there is one, and what a repeat gets back.
func (h *ReceiptHandler) replay(event Webhook) (Outcome, bool) {
	for _, receipt := range h.db.Receipts {
		if SameEvent(receipt.Event, event) {
			return Replay(receipt, event), true
		}
	}
	return Outcome{}, false
}

// Snapshot returns a copy of the store.
func (h *ReceiptHandler) Snapshot() Database {
	return CopyDatabase(h.db)
}
