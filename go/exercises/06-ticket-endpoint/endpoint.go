// Package ticketendpoint is exercise 06 in Go: the server side of the key. POST /api/tickets saves the
// ticket and the answer for its Idempotency-Key in one transaction; POST /webhooks is 03's handler on
// PostgreSQL. Read exercises/06-ticket-endpoint/README.md, write the two routes below, and run
// go test ./exercises/06-ticket-endpoint from go/.
package ticketendpoint

import (
	"net/http"

	"workbook/core"
	. "workbook/endpoint"
)

// Tickets is POST /api/tickets: a ticket and the saved answer for its Idempotency-Key commit together, so a
// retry with the same key and body gets that answer back, byte for byte, and never a second ticket.
func Tickets(o Options) http.Handler {
	panic(core.Todo("Tickets", "06-ticket-endpoint/endpoint.go"))
}

// Webhooks is POST /webhooks: exercise 03's handler on PostgreSQL. The receipt and the ticket commit
// together; a receipt older than the retention is forgotten.
func Webhooks(o Options) http.Handler {
	panic(core.Todo("Webhooks", "06-ticket-endpoint/endpoint.go"))
}
