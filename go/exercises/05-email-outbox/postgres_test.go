//go:build postgres

package emailoutbox

import (
	"testing"

	"workbook/core"
	"workbook/outbox"
)

// The same schedules on a real PostgreSQL, as npm run postgres -- 05 plays them: go test -tags postgres
// ./exercises/05-email-outbox. The tests start a server of their own (the workbook's embedded binaries)
// unless WORKBOOK_POSTGRES_URL names one, and stop it at the end; npm run verify runs them.

// TestOutboxOnPostgres: HandleWithOutbox and Relay on the server, and the model telling the same story.
func TestOutboxOnPostgres(t *testing.T) {
	core.Written(t, func() { EmailKey("acme", 1, "ticket-confirmation") })
	outbox.OnPostgres(t, outbox.OutboxRelay(HandleWithOutbox, Relay))
}

// TestSendInsideOnPostgres: the given SendInside the same way.
func TestSendInsideOnPostgres(t *testing.T) {
	outbox.OnPostgres(t, outbox.Inside(SendInside))
}
