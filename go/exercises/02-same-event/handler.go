// Package sameevent is exercise 02 in Go: the identity of a delivery, what a repeat gets back, and a handler
// that keeps a receipt in the same commit as its ticket. Read exercises/02-same-event/README.md, write the
// four below, and run go test ./exercises/02-same-event from go/.
package sameevent

import . "workbook/core"

// SameEvent is a delivery's identity: the same event, from the same source, for the same tenant.
func SameEvent(a, b Webhook) bool {
	panic(Todo("SameEvent", "02-same-event/handler.go"))
}

// Replay hands back the original ticket, unless the same key now carries a different request.
func Replay(receipt Receipt, event Webhook) Outcome {
	panic(Todo("Replay", "02-same-event/handler.go"))
}

// ReceiptHandler checks for a receipt, then saves the ticket and its receipt in one commit. Its zero value
// is ready to use.
type ReceiptHandler struct {
	db Database
}

// Handle answers a repeat from its receipt, and otherwise creates the ticket and the receipt together.
func (h *ReceiptHandler) Handle(event Webhook, fault Fault) Outcome {
	panic(Todo("ReceiptHandler.Handle", "02-same-event/handler.go"))
}

// Snapshot returns a copy of the store.
func (h *ReceiptHandler) Snapshot() Database {
	panic(Todo("ReceiptHandler.Snapshot", "02-same-event/handler.go"))
}
