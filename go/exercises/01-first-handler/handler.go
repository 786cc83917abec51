// Package firsthandler is exercise 01 in Go: the first handler, which creates a ticket for every delivery.
// Read exercises/01-first-handler/README.md, write the two methods below, and run
// go test ./exercises/01-first-handler from go/.
package firsthandler

import . "workbook/core"

// TicketHandler is the first handler: every delivery creates a ticket. Its zero value is ready to use.
type TicketHandler struct {
	db Database
}

// Handle creates a ticket for the event, unless the worker dies before its commit.
func (h *TicketHandler) Handle(event Webhook, fault Fault) Outcome {
	panic(Todo("TicketHandler.Handle", "01-first-handler/handler.go"))
}

// Snapshot returns a copy of the store.
func (h *TicketHandler) Snapshot() Database {
	panic(Todo("TicketHandler.Snapshot", "01-first-handler/handler.go"))
}
